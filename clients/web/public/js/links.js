// Links between the pages: the same token (in the fragment), another page of the client.

/** This page's address with `page` (and `table`) set in the fragment, the token kept. */
export function pageLink(page, table) {
  const params = new URLSearchParams(location.hash.slice(1));
  params.set("page", page);
  if (table) params.set("table", table);
  return `#${params.toString()}`;
}

/** The replay page of a table, opened with the same token. */
export function replayLink(table) {
  return pageLink("replay", table);
}
