// The shop's products. Prices are whole cents so that totals never pick up floating-point dust.

/** @typedef {{ slug: string, name: string, category: string, colour: string, priceCents: number,
 *   stock: number, description: string, tags: string[] }} Product */

/** @type {Product[]} */
export const products = [
  product('trail-mug-forest', 'Trail Mug, Forest Green', 'mug', 'forest green', 1600, 24,
    'A 12 oz stoneware mug with a speckled glaze. Dishwasher and microwave safe.', ['cup', 'coffee', 'tea']),
  product('trail-mug-clay', 'Trail Mug, Clay Red', 'mug', 'clay red', 1600, 18,
    'The same 12 oz stoneware mug in a warm terracotta glaze.', ['cup', 'coffee', 'tea']),
  product('trail-mug-slate', 'Trail Mug, Slate Blue', 'mug', 'slate blue', 1600, 3,
    'The 12 oz stoneware mug in a cool blue-grey glaze. Small batch.', ['cup', 'coffee', 'tea']),
  product('camp-mug-enamel', 'Enamel Camp Mug', 'mug', 'white', 1200, 40,
    'A light steel mug with a chip-resistant enamel finish, at home by the campfire.', ['cup', 'camping']),
  product('ridge-cap-olive', 'Ridge Cap, Olive', 'cap', 'olive', 2400, 15,
    'A six-panel cotton cap with an embroidered ridge line and an adjustable strap.', ['hat', 'baseball', 'green']),
  product('ridge-cap-sand', 'Ridge Cap, Sand', 'cap', 'sand', 2400, 9,
    'The six-panel Ridge Cap in a sun-bleached sand colour.', ['hat', 'baseball', 'beige']),
  product('summit-trucker-cap', 'Summit Trucker Cap', 'cap', 'charcoal', 2200, 0,
    'A mesh-back trucker cap with a woven summit patch. Restocking soon.', ['hat', 'mesh', 'grey', 'black']),
  product('switchback-tee-charcoal', 'Switchback Tee, Charcoal', 'tee', 'charcoal', 2800, 30,
    'An organic cotton t-shirt printed with a switchback trail. Unisex relaxed fit.', ['t-shirt', 'shirt', 'top', 'grey', 'black']),
  product('night-sky-tee-navy', 'Night Sky Tee, Navy', 'tee', 'navy', 2800, 22,
    'An organic cotton t-shirt with a glow-in-the-dark constellation print. Unisex relaxed fit.',
    ['t-shirt', 'shirt', 'top', 'stars', 'blue']),
  product('canyon-bottle', 'Canyon Water Bottle, 750 ml', 'bottle', 'rust', 3200, 12,
    'A double-walled steel bottle that keeps water cold for 24 hours. Leak-proof lid.',
    ['water', 'flask', 'insulated', 'drink', 'orange']),
  product('merino-trail-socks', 'Merino Trail Socks', 'socks', 'heather grey', 1800, 35,
    'Cushioned merino wool hiking socks that stay warm when wet.', ['wool', 'hiking']),
  product('pour-over-kit', 'Pour-over Coffee Kit', 'coffee', 'natural', 3800, 7,
    'A ceramic dripper, 40 paper filters and a glass carafe for slow mornings.',
    ['coffee', 'brew', 'dripper', 'filter']),
];

function product(slug, name, category, colour, priceCents, stock, description, tags) {
  return { slug, name, category, colour, priceCents, stock, description, tags };
}

/** Every product slug, in catalogue order: the enum of the tools' `slug` parameters. */
export const productSlugs = products.map((item) => item.slug);

/** @returns {Product | undefined} */
export function findProduct(slug) {
  return products.find((item) => item.slug === slug);
}

/** Like findProduct, but an unknown slug is an error whose message helps the caller recover. */
export function requireProduct(slug) {
  const found = findProduct(slug);
  if (!found) {
    throw new Error(`No product has the slug "${slug}". Use search_products to find a product's slug.`);
  }
  return found;
}

/** Dollars as a number with two decimals at most, for tool results. */
export function dollars(cents) {
  return Math.round(cents) / 100;
}

/** "$16.00", for people. */
export function formatPrice(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
