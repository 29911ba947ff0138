/** A page to read: its markdown, and when available its raw HTML (structured data) and title. */
export interface PageInput {
  url: string;
  markdown: string;
  html?: string;
  title?: string;
}
