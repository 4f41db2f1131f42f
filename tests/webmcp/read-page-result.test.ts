// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { readPageResult } from '@/lib/webmcp/read-page-result';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('readPageResult', () => {
  it("gives the page's first JSON-LD block that holds data, compact, past a broken or an empty one before it", async () => {
    document.title = 'Booked';
    document.body.innerHTML = `
      <script type="application/ld+json">{ "@type": "Thing", oops not json</script>
      <script type="application/ld+json">null</script>
      <script type="application/ld+json"> {} </script>
      <script type="Application/LD+JSON ">{ "@type": "Reservation",  "reservationId": "B-7" }</script>
      <script type="application/ld+json">{ "@type": "Organization" }</script>`;
    expect(await readPageResult()).toMatchObject({ title: 'Booked', data: '{"@type":"Reservation","reservationId":"B-7"}' });
  });

  it('gives a block as written where none is JSON, and no data where there is no block', async () => {
    document.body.innerHTML = '<script type="application/ld+json">  </script><script type="application/ld+json">Reservation B-7</script>';
    expect((await readPageResult()).data).toBe('Reservation B-7');
    document.body.innerHTML = '<script>var data = 1;</script>';
    expect((await readPageResult()).data).toBeUndefined();
  });
});
