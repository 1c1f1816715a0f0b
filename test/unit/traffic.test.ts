import { describe, expect, it } from 'vitest';
import { classifyTraffic, TRACKING_PARAMS } from '../../src/modules/marketing/index.ts';

describe('classifyTraffic', () => {
  it('knows exactly the seven tracking parameters of the spec', () => {
    expect([...TRACKING_PARAMS]).toEqual([
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
      'gclid',
      'fbclid',
    ]);
  });

  it.each(TRACKING_PARAMS)('is marketing when only %s is non-empty', (param) => {
    expect(classifyTraffic({ [param]: 'x' })).toBe('marketing');
    expect(classifyTraffic({ [param]: '  spaced  ' })).toBe('marketing');
  });

  it.each(TRACKING_PARAMS)('is organic when %s is empty or only whitespace', (param) => {
    expect(classifyTraffic({ [param]: '' })).toBe('organic');
    expect(classifyTraffic({ [param]: ' \t\n' })).toBe('organic');
    expect(classifyTraffic({ [param]: undefined })).toBe('organic');
  });

  it('is organic without any parameter, and a referrer does not count', () => {
    expect(classifyTraffic({})).toBe('organic');
    expect(classifyTraffic({ referrer: 'https://ads.example' } as Record<string, string>)).toBe('organic');
    expect(classifyTraffic({ utm_source: '', utm_medium: ' ', gclid: '' })).toBe('organic');
  });

  it('is marketing when any one of several parameters is set', () => {
    expect(classifyTraffic({ utm_source: '', utm_medium: '', fbclid: 'abc' })).toBe('marketing');
  });
});
