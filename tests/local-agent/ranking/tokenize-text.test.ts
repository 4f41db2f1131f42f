import { describe, expect, it } from 'vitest';
import { tokenizeText } from '../../../lib/local-agent/ranking/tokenize-text';

describe('tokenizeText', () => {
  it('lower-cases, splits identifiers, drops stop words and numbers, stems', () => {
    expect(tokenizeText('Could you find the getHotelBookings for 3 guests?')).toEqual([
      'find',
      'get',
      'hotel',
      'book',
      'guest',
    ]);
  });

  it('keeps stop words and numbers when asked, and can skip stemming', () => {
    expect(
      tokenizeText('the 2 Books', { dropStopWords: false, keepNumbers: true, stem: false }),
    ).toEqual(['the', '2', 'books']);
  });

  it('writes Chinese text as overlapping character pairs', () => {
    expect(tokenizeText('搜索关键词')).toEqual(['搜索', '索关', '关键', '键词']);
    expect(tokenizeText('查 news')).toEqual(['查', 'new']);
  });

  it('leaves out the pairs 的 starts, which join a word to the one before it, and keeps the words the other particles are part of', () => {
    expect(tokenizeText('我的订单到哪了')).toEqual(['我的', '订单', '单到', '到哪', '哪了']);
    expect(tokenizeText('的')).toEqual([]);
    expect(tokenizeText('目的地')).toEqual(['目的']);
    expect(tokenizeText('了解酒吧')).toEqual(['了解', '解酒', '酒吧']);
    expect(tokenizeText('予約を完了')).toEqual(['予約', '約を', 'を完', '完了']);
  });

  it('writes Thai, Lao, Khmer and Myanmar as character pairs too, and keeps the Japanese long-vowel mark in its run', () => {
    expect(tokenizeText('ค้นหาสินค้า')).toHaveLength(Array.from('ค้นหาสินค้า').length - 1);
    expect(tokenizeText('コーヒー')).toEqual(['コー', 'ーヒ', 'ヒー']);
  });

  it('reads full-width letters, ß and the Turkish İ as their plain letters', () => {
    expect(tokenizeText('ｃｓｖ Ｅｘｐｏｒｔ')).toEqual(tokenizeText('csv Export'));
    expect(tokenizeText('Straße')).toEqual(tokenizeText('Strasse'));
    expect(tokenizeText('İPTAL')).toEqual(['iptal']);
  });

  it('drops the one- and two-letter words of Cyrillic, Greek, Arabic and Hebrew, mostly prepositions', () => {
    expect(tokenizeText('Магазины в Москве')).toEqual(['магазины', 'москве']);
    expect(tokenizeText('المتاجر في الرياض')).toEqual(['متاجر', 'رياض']);
  });

  it('reads Arabic as people type it: a hamza or madda on alef or not, ة as ه, ى as ي, no tatweel', () => {
    expect(tokenizeText('أضف إلى السلة')).toEqual(tokenizeText('اضف الى السله'));
    expect(tokenizeText('آخر مستشفى')).toEqual(tokenizeText('اخر مستشفي'));
    expect(tokenizeText('السـلـة')).toEqual(tokenizeText('السلة'));
  });

  it('takes the endings off an Arabic word, as a light stemmer does: "my order" and "the order" are "order"', () => {
    expect(tokenizeText('طلبي')).toEqual(['طلب']);
    expect(tokenizeText('سلتي')).toContain(tokenizeText('السلة')[0]);
    expect(tokenizeText('الطلب')).toEqual(['طلب']);
    expect(tokenizeText('تطبيقات')).toEqual(['تطبيق']);
    expect(tokenizeText('السيارة')).toEqual(tokenizeText('سيارات'));
    // Too short to lose an ending.
    expect(tokenizeText('بيان')).toEqual(['بيان']);
  });

  it('reads an Arabic word that only looks as if it had the article, once its hamza is left out, both ways', () => {
    expect(tokenizeText('إلغاء')).toEqual(['غاء', 'الغاء']);
    expect(tokenizeText('ألوان')).toEqual(['وان', 'الوان']);
    expect(tokenizeText('الغاء')).toEqual(['غاء']);
  });

  it('takes off Arabic vowel marks and article, and reads a Hebrew word without its prefix as well', () => {
    expect(tokenizeText('ألغِ القسيمة')).toEqual(['الغ', 'قسيم']);
    expect(tokenizeText('בחנות שלנו')).toEqual(['בחנות', 'חנות', 'שלנו', 'לנו']);
    expect(tokenizeText('הַחֲנוּיוֹת')).toEqual(['החנויות', 'חנויות']);
  });

  it('gives nothing for an empty or stop-word-only text', () => {
    expect(tokenizeText('')).toEqual([]);
    expect(tokenizeText('could you please do it for me')).toEqual([]);
  });
});
