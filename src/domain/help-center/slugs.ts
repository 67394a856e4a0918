// Slugs of collections and articles: made from the name or title as a product's slug is
// (docs/api.md, "Products"), with `-2`, `-3`, … where one is taken; a title without a single
// Latin letter or digit gives `article` (or `collection`).
import { freeSlug, slugFromName, slugStem } from '../products/product-naming.js';

/** The first free slug for `text`, given the taken slugs that start with its stem (`takenStartingWith`). */
export async function freeSlugFor(text: string, fallback: string, takenStartingWith: (stem: string) => Promise<string[]>): Promise<string> {
  const base = slugFromName(text, fallback);
  return freeSlug(base, new Set(await takenStartingWith(slugStem(base))));
}
