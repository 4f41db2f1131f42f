import { describe, expect, it } from 'vitest';
import { splitIdentifier } from '../../../lib/local-agent/ranking/split-identifier';

describe('splitIdentifier', () => {
  it('splits camelCase, PascalCase and acronyms where a reader sees a break', () => {
    expect(splitIdentifier('getUserByID')).toEqual(['get', 'User', 'By', 'ID']);
    expect(splitIdentifier('XMLHttpRequest')).toEqual(['XML', 'Http', 'Request']);
    expect(splitIdentifier('BadgeApi')).toEqual(['Badge', 'Api']);
  });

  it('splits at underscores, dots, dashes, slashes and other punctuation', () => {
    expect(splitIdentifier('financial_ratios.calculate_ROE')).toEqual([
      'financial',
      'ratios',
      'calculate',
      'ROE',
    ]);
    expect(splitIdentifier('get-weibo-trending')).toEqual(['get', 'weibo', 'trending']);
    expect(splitIdentifier('/root/markdown/report.md')).toEqual(['root', 'markdown', 'report', 'md']);
  });

  it('separates digits from letters', () => {
    expect(splitIdentifier('badge1')).toEqual(['badge', '1']);
    expect(splitIdentifier('AI2sql')).toEqual(['AI', '2', 'sql']);
    expect(splitIdentifier('get3dModel')).toEqual(['get', '3', 'd', 'Model']);
  });

  it('keeps accented letters inside their word and a Chinese run whole', () => {
    expect(splitIdentifier('réserver_hôtel')).toEqual(['réserver', 'hôtel']);
    expect(splitIdentifier('bing 搜索关键词')).toEqual(['bing', '搜索关键词']);
  });

  it('gives nothing for empty or punctuation-only text', () => {
    expect(splitIdentifier('')).toEqual([]);
    expect(splitIdentifier('  _.-/  ')).toEqual([]);
  });
});
