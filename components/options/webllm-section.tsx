import { modelCatalog, modelLabel, type CatalogModel } from '@/lib/engines/model-catalog';
import type { WebGpuStatus } from '@/lib/engines/webgpu-check';
import type { Settings } from '@/lib/settings';
import { formatSizeFromMegabytes } from '@/lib/text/format-bytes';
import { NumberField } from './number-field';
import type { OptionsModel } from './options-model';
import { WebGpuStatusBox } from './webgpu-status-box';
import { TrialView } from './trial-view';
import { WebLlmDownloadView } from './webllm-download-view';
import { webLlmModelShown } from './webllm-model-shown';

const formatNames = { hermes: 'Hermes <tool_call> tags', 'llama3-json': 'Llama 3 JSON', lfm2: 'LFM2', 'prompt-api': 'JSON envelope' };

/** The WebLLM model: the default for this GPU, or one from the curated list, with its details. */
export function WebLlmSection({ model, settings }: { model: OptionsModel; settings: Settings }) {
  const status = model.webGpu.value;
  const recommended = model.recommendedModel.value;
  const shaderF16 = status?.available === true && status.shaderF16;
  const { model: selected, reason } = webLlmModelShown(model, settings);
  // Without WebGPU no model runs: the box above says why, and nothing here is to choose.
  const cannotRun = status?.available === false;
  return (
    <section aria-labelledby="webllm-heading">
      {/* Named after the engine, as the other engines' sections are: "Model" is the field's label below. */}
      <h2 id="webllm-heading">WebLLM</h2>
      <WebGpuStatusBox status={status} />
      <label class="field">
        <span>Model</span>
        <select value={settings.model} disabled={cannotRun} data-testid="webllm-model" data-place="model" onChange={(event) => void model.update({ model: event.currentTarget.value })}>
          <option value="">{recommendedLabel(status, recommended)}</option>
          {modelCatalog.map((entry) => {
            const unsupported = entry.needsShaderF16 && status?.available === true && !shaderF16;
            return (
              <option value={entry.id} key={entry.id} disabled={unsupported}>
                {`${modelLabel(entry)} · ${formatSizeFromMegabytes(entry.downloadMB)} download · ${formatSizeFromMegabytes(entry.memoryMB)} GPU memory${unsupported ? ' · needs shader-f16' : ''}`}
              </option>
            );
          })}
        </select>
      </label>
      {selected && <ModelDetails entry={selected} reason={reason} />}
      {selected && !cannotRun && <WebLlmDownloadView model={model} entry={selected} picked={settings.model} keptMinutes={settings.modelKeptMinutes} />}
      {selected && !cannotRun && (
        <TrialView
          model={model}
          note={`Loads ${modelLabel(selected)} (downloading it first where it is not here yet) and has it answer a short request, to see how fast it answers on this computer.`}
        />
      )}
      <label class="choice">
        <input
          type="checkbox"
          checked={settings.constrainedDecoding}
          disabled={cannotRun || (selected !== undefined && selected.format !== 'hermes')}
          data-testid="constrained-decoding"
          onChange={(event) => void model.update({ constrainedDecoding: event.currentTarget.checked })}
        />
        <span>
          <strong>Only well-formed tool calls</strong>
          <span class="muted">
            The model can then write a tool call only in the shape the page's tool asks for, so fewer calls fail; replies may
            start a little later. Qwen, Hermes 3 and SmolLM2 models (constrained decoding).
          </span>
        </span>
      </label>
      <NumberField
        label="Minutes the model stays loaded after its last use"
        value={settings.modelKeptMinutes}
        min={0}
        max={60}
        step={1}
        hint={`How long the model stays in GPU memory after it last answered or loaded (0 to 60 minutes; 5 by default)${selected ? `, holding ${formatSizeFromMegabytes(selected.memoryMB)} of it` : ''}. Meanwhile a question starts at once; later, the next question loads the model again first. It also loads as the side panel opens on a page with tools. At 0, Chrome unloads it once the extension has been idle for 30 seconds.`}
        onChange={(modelKeptMinutes) => model.update({ modelKeptMinutes })}
      />
    </section>
  );
}

/**
 * The choice that leaves the model to the extension, which picks the one that fits this computer.
 * Short enough for the closed list of a page 320 px wide: why it fits is said under it.
 */
function recommendedLabel(status: WebGpuStatus | undefined, recommended: CatalogModel | undefined): string {
  if (status?.available === false) return 'None: WebLLM cannot run here';
  return recommended ? `Default: ${modelLabel(recommended)}` : 'Default for this computer';
}

function ModelDetails({ entry, reason }: { entry: CatalogModel; reason: string | undefined }) {
  return (
    <dl class="model-details" data-testid="model-details">
      <dt>Model</dt>
      <dd data-testid="model-id">{entry.id}</dd>
      <dt>Download</dt>
      <dd>about {formatSizeFromMegabytes(entry.downloadMB)}, once</dd>
      <dt>GPU memory</dt>
      <dd>{formatSizeFromMegabytes(entry.memoryMB)}</dd>
      <dt>Context</dt>
      <dd>{entry.contextTokens.toLocaleString('en-US')} tokens</dd>
      <dt>Tool format</dt>
      <dd>{formatNames[entry.format]}</dd>
      <dt>Needs shader-f16</dt>
      <dd>{entry.needsShaderF16 ? 'yes' : 'no'}</dd>
      <dt>Why</dt>
      <dd>{entry.why}</dd>
      {reason && (
        <>
          <dt>For this computer</dt>
          <dd data-testid="recommendation-reason">{reason}</dd>
        </>
      )}
    </dl>
  );
}
