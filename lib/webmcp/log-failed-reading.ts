/** A reading of the page's tools that failed is a bug of this script: said in the page's console, never thrown at the page. */
export function logFailedReading(error: unknown): void {
  console.error("Reading the page's WebMCP tools failed:", error);
}
