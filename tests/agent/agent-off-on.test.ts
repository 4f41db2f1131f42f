import { describe, expect, it } from 'vitest';
import { agentOffOn } from '../../lib/settings';

describe('agentOffOn', () => {
  it('covers a listed site on either scheme and all its subdomains, and nothing else', () => {
    const off = ['https://bank.example', 'http://localhost:8377'];
    expect(agentOffOn(off, 'https://bank.example')).toBe(true);
    expect(agentOffOn(off, 'https://www.bank.example')).toBe(true);
    expect(agentOffOn(off, 'http://online.bank.example')).toBe(true);
    expect(agentOffOn(off, 'https://notbank.example')).toBe(false);
    expect(agentOffOn(off, 'https://bank.example.evil.example')).toBe(false);
    expect(agentOffOn(off, 'http://localhost:8377')).toBe(true);
    expect(agentOffOn(off, 'http://localhost:3000')).toBe(false);
    expect(agentOffOn(off, 'null')).toBe(false);
  });
});
