import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { chooseLogFormat } from '../../src/http/logging.ts';

describe('chooseLogFormat', () => {
  it.each([
    [{ logFormat: null, nodeEnv: 'development', stdoutIsTTY: true }, 'pretty'],
    [{ logFormat: null, nodeEnv: 'development', stdoutIsTTY: false }, 'json'],
    [{ logFormat: null, nodeEnv: 'production', stdoutIsTTY: true }, 'json'],
    [{ logFormat: null, nodeEnv: 'test', stdoutIsTTY: true }, 'pretty'],
    [{ logFormat: 'json', nodeEnv: 'development', stdoutIsTTY: true }, 'json'],
    [{ logFormat: 'pretty', nodeEnv: 'production', stdoutIsTTY: false }, 'pretty'],
  ] as const)('%j → %s', (options, format) => {
    expect(chooseLogFormat(options)).toBe(format);
  });

  it('takes LOG_FORMAT from the configuration, and refuses another value', () => {
    expect(loadConfig({}).logFormat).toBeNull();
    expect(loadConfig({ LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT: must be json or pretty, got "xml"');
  });
});
