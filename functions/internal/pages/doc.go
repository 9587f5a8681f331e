// Package pages turns the catalogue into the data of each prerendered page. The build
// writes each page's data as {page path}/_payload.json; Next.js renders the page from
// that very file and the export ships it beside the HTML, so the payload is exactly
// the data the page was rendered from.
package pages
