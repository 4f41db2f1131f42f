import '@/assets/theme.css';
import './style.css';
import { render } from 'preact';
import { TraceViewerApp } from '@/components/traces/trace-viewer-app';
import { downloadFile } from '@/lib/traces/download-file';
import { followRunInAddress } from '@/lib/traces/run-address';
import { extensionTraceTransport } from '@/lib/traces/extension-trace-transport';
import { createTraceClient } from '@/lib/traces/trace-client';
import { loadTraceSettings, saveTraceSettings, watchTraceSettings } from '@/lib/traces/trace-settings';
import { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

const model = new TraceViewerModel({
  client: createTraceClient(extensionTraceTransport()),
  download: downloadFile,
  settings: { load: loadTraceSettings, save: saveTraceSettings, watch: watchTraceSettings },
});

// `traces.html?run=<id>` opens that run, as the side panel's "Trace" links do.
const requested = new URLSearchParams(location.search).get('run');
if (requested) void model.open(requested);
void model.load();

followRunInAddress(model, window);
// Runs that start, end or go elsewhere show at once; where the page missed the news (asleep in
// the background), when it comes back.
model.watchRuns();
// The tabs a run can be replayed in, as pages load, leave and close.
model.followReplayTabs();
window.addEventListener('focus', () => void model.load());

render(<TraceViewerApp model={model} {...(requested ? { initialRunId: requested } : {})} />, document.getElementById('app')!);
