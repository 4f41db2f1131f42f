import '@/assets/theme.css';
import './style.css';
import { effect } from '@preact/signals';
import { render } from 'preact';
import { TraceViewerApp } from '@/components/traces/trace-viewer-app';
import { downloadFile } from '@/lib/traces/download-file';
import { extensionTraceTransport } from '@/lib/traces/extension-trace-transport';
import { createTraceClient } from '@/lib/traces/trace-client';
import { loadTraceSettings, saveTraceSettings } from '@/lib/traces/trace-settings';
import { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

const model = new TraceViewerModel({
  client: createTraceClient(extensionTraceTransport()),
  download: downloadFile,
  settings: { load: loadTraceSettings, save: saveTraceSettings },
});

// `traces.html?run=<id>` opens that run, as the side panel's "Trace" links do.
const requested = new URLSearchParams(location.search).get('run');
if (requested) void model.open(requested);
void model.load();

// The address names the open run, so it can be reloaded or shared between tabs.
effect(() => {
  const runId = model.openRunId.value;
  const url = new URL(location.href);
  if (runId) url.searchParams.set('run', runId);
  else url.searchParams.delete('run');
  if (url.href !== location.href) history.replaceState(null, '', url);
});
// Runs recorded while the page was in the background show when it comes back.
window.addEventListener('focus', () => void model.load());

render(<TraceViewerApp model={model} {...(requested ? { initialRunId: requested } : {})} />, document.getElementById('app')!);
