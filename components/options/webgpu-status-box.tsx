import { useAfterMount } from '@/components/shared/use-after-mount';
import type { WebGpuStatus } from '@/lib/engines/webgpu-check';

/**
 * What the WebGPU check found, and what to do when WebLLM cannot run. That it cannot is said
 * politely, not as an alert: the page found it by itself, at each opening, and again as the
 * engines are arrowed through onto WebLLM (its region is filled once it is in the page, so it is
 * read out then too).
 */
export function WebGpuStatusBox({ status }: { status: WebGpuStatus | undefined }) {
  const said = useAfterMount(status);
  return (
    <>
      <div role="status">{said?.available === false && <NoWebGpu status={said} />}</div>
      {!status && <p class="muted" data-testid="webgpu-status">Checking WebGPU…</p>}
      {status?.available && (
        <p class="notice" data-testid="webgpu-status">
          WebGPU is available on {status.adapterName}
          {status.fallbackAdapter ? ' (a software adapter: slow)' : ''}. 16-bit shaders (shader-f16):{' '}
          <strong data-testid="shader-f16">{status.shaderF16 ? 'yes' : 'no'}</strong>.
        </p>
      )}
    </>
  );
}

function NoWebGpu({ status }: { status: Extract<WebGpuStatus, { available: false }> }) {
  return (
    <div class="notice tone-error" data-testid="webgpu-status">
      <strong>WebLLM cannot run here.</strong> {status.message}
      {/* The engine's own hint points to this page; here, the choice is just above. */}
      <p class="hint">
        {status.fix}, or choose another engine above (a local server, or Chrome's built-in model where Chrome offers
        it).
      </p>
    </div>
  );
}
