import type { WebGpuStatus } from '@/lib/engines/webgpu-check';

/** What the WebGPU check found, and what to do when WebLLM cannot run. */
export function WebGpuStatusBox({ status }: { status: WebGpuStatus | undefined }) {
  if (!status) return <p class="muted" data-testid="webgpu-status">Checking WebGPU…</p>;
  if (!status.available) {
    return (
      <div class="notice tone-error" role="alert" data-testid="webgpu-status">
        <strong>WebLLM cannot run here.</strong> {status.message}
        {/* The engine's own hint points to this page; here, the choice is just above. */}
        <p class="hint">
          {status.fix}, or choose another engine above (a local server, or Chrome's built-in model where Chrome offers
          it).
        </p>
      </div>
    );
  }
  return (
    <p class="notice" data-testid="webgpu-status">
      WebGPU is available on {status.adapterName}
      {status.fallbackAdapter ? ' (a software adapter: slow)' : ''}. 16-bit shaders (shader-f16):{' '}
      <strong data-testid="shader-f16">{status.shaderF16 ? 'yes' : 'no'}</strong>.
    </p>
  );
}
