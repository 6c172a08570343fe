/**
 * The public storefront as HTML: no client framework, no script, one inline
 * style sheet from the theme. Markdown is rendered by markdown-it with raw
 * HTML off (written HTML shows as text), then sanitised by sanitize-html: only
 * the tags Markdown makes, no `on*` attribute, no `style`, and links and images
 * only with http, https or mailto. Every value from a store is escaped.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { StorefrontCollection, StorefrontOffer } from '../domain/store/public';
import { THEME_COLORS } from '../domain/store/service';
import type { PageDoc, StoreDoc } from '../domain/store/store';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    's',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], ol: ['start'], th: ['align'], td: ['align'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }) },
};

/** Markdown to safe HTML: rendered, then sanitised (inert whatever the author wrote). */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), SANITIZE);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Only http(s) addresses go into an href or src we write ourselves. */
const safeUrl = (u: string | null | undefined): string | null => (u && /^https?:\/\//i.test(u) ? u : null);

function money(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('pt-BR', { style: 'currency', currency }).format(value);
  } catch {
    return `${currency} ${value.toFixed(2)}`;
  }
}

interface Head {
  title: string;
  description: string | null;
  canonical: string;
  image: string | null;
  type: 'website' | 'article';
}

function layout(store: StoreDoc, head: Head, home: string, main: string): string {
  const c = { ...THEME_COLORS[store.theme], ...store.colors };
  const meta = [
    `<title>${escapeHtml(head.title)}</title>`,
    head.description ? `<meta name="description" content="${escapeHtml(head.description)}">` : '',
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">`,
    `<meta property="og:type" content="${head.type}">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    head.description ? `<meta property="og:description" content="${escapeHtml(head.description)}">` : '',
    `<meta property="og:url" content="${escapeHtml(head.canonical)}">`,
    `<meta property="og:site_name" content="${escapeHtml(store.name)}">`,
    safeUrl(head.image) ? `<meta property="og:image" content="${escapeHtml(head.image!)}">` : '',
  ].filter(Boolean);
  const logo = safeUrl(store.logo) ? `<img class="logo" src="${escapeHtml(store.logo!)}" alt="">` : '';
  const networks = Object.entries(store.networks)
    .flatMap(([n, u]) => (safeUrl(u) ? [`<a href="${escapeHtml(u)}" rel="me noopener">${escapeHtml(n)}</a>`] : []))
    .join(' ');
  const contact =
    store.contact && safeUrl(store.contact.url)
      ? `<a class="contact" href="${escapeHtml(store.contact.url)}" rel="noopener">${escapeHtml(store.contact.label ?? 'Fale com a gente')}</a>`
      : '';
  const hours = store.hours.length
    ? `<ul class="hours">${store.hours.map((h) => `<li>${escapeHtml(h.day)} ${escapeHtml(h.opens)}–${escapeHtml(h.closes)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="pt-BR" class="theme-${store.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${meta.join('\n')}
<style>
body{margin:0;font-family:system-ui,sans-serif;background:${c.background};color:${c.text};line-height:1.5}
header,main,footer{max-width:960px;margin:0 auto;padding:1rem}
header a.home{color:${c.primary};text-decoration:none;font-size:1.6rem;font-weight:700}
.logo{height:48px;vertical-align:middle;margin-right:.5rem}
a{color:${c.primary}} h2{color:${c.secondary}}
.offers{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:1rem;padding:0;list-style:none}
.offer{border:1px solid ${c.secondary}33;border-radius:8px;padding:.75rem}
.offer img{max-width:100%}.was{text-decoration:line-through;opacity:.7;margin-right:.4rem}.price{font-weight:700}
.contact{display:inline-block;background:${c.primary};color:${c.background};padding:.4rem .8rem;border-radius:6px;text-decoration:none}
article img{max-width:100%}
</style>
</head>
<body>
<header>${logo}<a class="home" href="${escapeHtml(home)}">${escapeHtml(store.name)}</a>${store.tagline ? `<p class="tagline">${escapeHtml(store.tagline)}</p>` : ''}</header>
<main>
${main}
</main>
<footer>${contact} ${networks ? `<nav class="networks">${networks}</nav>` : ''}${hours}</footer>
</body>
</html>
`;
}

function offerCard(o: StorefrontOffer): string {
  const img = safeUrl(o.image) ? `<img src="${escapeHtml(o.image!)}" alt="" loading="lazy">` : '';
  const was =
    o.original_price !== null && o.price !== null && o.original_price > o.price
      ? `<span class="was">${money(o.original_price, o.currency)}</span>`
      : '';
  const price = o.price !== null ? `<span class="price">${money(o.price, o.currency)}</span>` : '';
  const coupon = o.coupon ? `<p class="coupon">Cupom: <code>${escapeHtml(o.coupon)}</code></p>` : '';
  const href = safeUrl(o.url);
  const title = href ? `<a href="${escapeHtml(href)}" rel="nofollow sponsored noopener">${escapeHtml(o.title)}</a>` : escapeHtml(o.title);
  return `<li class="offer">${img}<h3>${title}</h3><p>${was}${price}</p>${coupon}</li>`;
}

/** The home page: identity, the published collections with their approved offers, the published pages. */
export function renderHome(store: StoreDoc, home: string, collections: StorefrontCollection[], pages: PageDoc[]): string {
  const sections = collections
    .map(
      (c) =>
        `<section class="collection" id="${escapeHtml(c.slug)}"><h2>${escapeHtml(c.title)}</h2>` +
        (c.description ? `<p>${escapeHtml(c.description)}</p>` : '') +
        `<ul class="offers">${c.offers.map(offerCard).join('')}</ul></section>`,
    )
    .join('\n');
  const pageList = pages.length
    ? `<nav class="pages"><h2>Páginas</h2><ul>${pages.map((p) => `<li><a href="${escapeHtml(home + p.slug)}">${escapeHtml(p.title)}</a></li>`).join('')}</ul></nav>`
    : '';
  const about = store.description ? `<p class="about">${escapeHtml(store.description)}</p>` : '';
  return layout(
    store,
    {
      title: store.seo_title ?? store.name,
      description: store.seo_description ?? store.tagline,
      canonical: home,
      image: store.logo,
      type: 'website',
    },
    home,
    `${about}\n${sections}\n${pageList}`,
  );
}

/** A Markdown page, rendered and sanitised. */
export function renderPage(store: StoreDoc, home: string, page: PageDoc): string {
  const cover = safeUrl(page.cover) ? `<img class="cover" src="${escapeHtml(page.cover!)}" alt="">` : '';
  return layout(
    store,
    {
      title: page.seo_title ?? page.title,
      description: page.seo_description ?? page.summary,
      canonical: home + page.slug,
      image: page.cover,
      type: 'article',
    },
    home,
    `<article>${cover}<h1>${escapeHtml(page.title)}</h1>\n${renderMarkdown(page.body)}</article>`,
  );
}

export function renderSitemap(store: StoreDoc, home: string, pages: PageDoc[]): string {
  const url = (loc: string, at: Date) => `<url><loc>${escapeHtml(loc)}</loc><lastmod>${at.toISOString()}</lastmod></url>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    [
      url(home, new Date(Math.max(store.updated_at.getTime(), ...pages.map((p) => p.updated_at.getTime())))),
      ...pages.map((p) => url(home + p.slug, p.updated_at)),
    ].join('\n') +
    '\n</urlset>\n'
  );
}

export const renderRobots = (home: string): string => `User-agent: *\nAllow: /\nSitemap: ${home}sitemap.xml\n`;

export const renderNotFound = (): string =>
  '<!doctype html>\n<html lang="pt-BR"><head><meta charset="utf-8"><title>Não encontrado</title><meta name="robots" content="noindex"></head>' +
  '<body><h1>Página não encontrada</h1></body></html>\n';
