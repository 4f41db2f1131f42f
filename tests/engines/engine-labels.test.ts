import { describe, expect, it } from 'vitest';
import { engineLabel, engineLabels } from '../../lib/engines/engine-labels';
import { isOnThisMachine } from '../../lib/text/on-this-machine';

const hostOf = (address: string) => new URL(address).hostname;

describe('which server is on this computer', () => {
  it('counts localhost and its subdomains, 127.0.0.0/8 and [::1], however the address writes them, and where a server here listens for every interface', () => {
    for (const address of [
      'http://localhost:11434',
      'http://LOCALHOST.:11434',
      'http://ollama.localhost',
      'http://127.0.0.1:8080',
      'http://127.1',
      'http://127.255.0.9',
      'http://0x7f000001',
      'http://[::1]:1234',
      'http://[0:0:0:0:0:0:0:1]',
      // As vLLM's log prints where it listens: never another computer.
      'http://0.0.0.0:8000',
      'http://[::]:8000',
    ]) {
      expect(isOnThisMachine(hostOf(address)), address).toBe(true);
    }
  });

  it('counts anything else as elsewhere: the same network, a name that only starts like this computer, a public host', () => {
    for (const address of [
      'http://192.168.1.20:11434',
      'http://10.0.0.2',
      'http://gpu-box.lan:11434',
      'http://gpu-box',
      'http://[fe80::1]',
      'http://0.0.0.1',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
      'https://api.example.com',
    ]) {
      expect(isOnThisMachine(hostOf(address)), address).toBe(false);
    }
  });
});

describe('the engine names', () => {
  it('calls a server "Local" only on this computer, and names the host of one elsewhere', () => {
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1' })).toBe('Local server (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: '127.0.0.1:8080' })).toBe('Local server (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'http://gpu-box.lan:11434/v1' })).toBe('Server at gpu-box.lan (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: '192.168.1.20:11434' })).toBe('Server at 192.168.1.20 (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'https://llm.example.com/v1' })).toBe('Server at llm.example.com (OpenAI-compatible)');
    // An address the engine refuses still says where it points: ports Chrome blocks, a key in it.
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'http://me:secret@gpu-box.lan:11434/v1' })).toBe('Server at gpu-box.lan (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:1/v1' })).toBe('Local server (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'http://gpu-box.lan:6000/v1' })).toBe('Server at gpu-box.lan (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'gpu-box.lan:6000' })).toBe('Server at gpu-box.lan (OpenAI-compatible)');
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'localhost:6000' })).toBe('Local server (OpenAI-compatible)');
    // An address that is none says nothing of where the server is.
    expect(engineLabel({ engine: 'openai', openaiBaseUrl: 'olama' })).toBe(engineLabels.openai);
    expect(engineLabels.openai).not.toMatch(/local/i);
  });

  it('names the other engines as ever, whatever server address is kept', () => {
    for (const engine of ['webllm', 'prompt-api', 'replay'] as const) {
      expect(engineLabel({ engine, openaiBaseUrl: 'http://gpu-box.lan:11434/v1' })).toBe(engineLabels[engine]);
    }
  });
});
