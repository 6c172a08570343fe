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
  /** A page search engines should not keep (a 404). */
  noindex?: boolean;
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return luminance > 0.179 ? '#111111' : '#ffffff';
}

type Colors = Record<'primary' | 'secondary' | 'background' | 'text', string>;

/** The shared sheet: a header band, image-led offer cards in a grid, a footer; phone first. */
const baseStyle = (c: Colors): string => `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:${c.background};color:${c.text};line-height:1.5}
a{color:${c.primary}}
.wrap{max-width:1120px;margin:0 auto;padding:0 1rem}
.band{background:${c.primary};color:${textOn(c.primary)}}
.band .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding-top:.9rem;padding-bottom:.9rem}
.band a{color:inherit}
a.home{font-size:1.5rem;font-weight:800;text-decoration:none;letter-spacing:-.01em}
.logo{height:44px;width:44px;object-fit:contain;border-radius:8px;background:#fff}
.tagline{margin:0;opacity:.9;flex-basis:100%}
.jump{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0;list-style:none;font-weight:600}
.jump a{text-decoration:none}
main.wrap{padding-top:1.25rem;padding-bottom:2rem}
.about{font-size:1.1rem;max-width:48rem}
.collection{margin:1.5rem 0 2.5rem}
.collection h2{margin:0 0 .25rem;font-size:1.45rem;color:${c.secondary}}
.collection>p{margin:0 0 1rem;opacity:.85}
.offers{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.75rem;padding:0;margin:0;list-style:none}
@media (min-width:640px){.offers{grid-template-columns:repeat(3,minmax(0,1fr));gap:1rem}}
@media (min-width:960px){.offers{grid-template-columns:repeat(4,minmax(0,1fr))}}
.offer{position:relative;display:flex;flex-direction:column;background:${c.background};border:1px solid ${c.secondary}33;border-radius:12px;overflow:hidden}
.media{display:block;aspect-ratio:1/1;text-decoration:none;background:#ffffff;border-bottom:1px solid ${c.secondary}22}
.media img{width:100%;height:100%;object-fit:contain;display:block}
.noimg{display:flex;align-items:center;justify-content:center;width:100%;height:100%;font-size:3rem;font-weight:800;color:${c.primary};background:${c.primary}14}
.badge{position:absolute;top:.5rem;left:.5rem;background:#c62828;color:#fff;font-weight:800;font-size:.85rem;padding:.15rem .5rem;border-radius:999px}
.body{display:flex;flex-direction:column;gap:.35rem;padding:.6rem .7rem .75rem;flex:1}
.offer h3{margin:0;font-size:.95rem;font-weight:600;line-height:1.3;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.offer h3 a{color:inherit;text-decoration:none}
.prices{margin:0}
.was{display:block;font-size:.8rem;text-decoration:line-through;opacity:.65}
.price{font-size:1.25rem;font-weight:800;color:${c.text}}
.coupon{margin:0;font-size:.85rem}
.coupon code{border:1px dashed ${c.primary};padding:.05rem .35rem;border-radius:4px;font-weight:700}
.cta{margin-top:auto;display:block;text-align:center;background:${c.primary};color:${textOn(c.primary)};font-weight:700;padding:.55rem .5rem;border-radius:8px;text-decoration:none}
.cta:focus-visible,.offer a:focus-visible{outline:3px solid ${c.secondary};outline-offset:2px}
.contact{display:inline-block;background:${c.primary};color:${textOn(c.primary)};padding:.55rem 1rem;border-radius:8px;text-decoration:none;font-weight:700}
nav.pages{margin:2rem 0 0}
nav.pages h2{margin:0 0 .6rem;font-size:1.2rem;color:${c.secondary}}
nav.pages ul{display:flex;flex-wrap:wrap;gap:.5rem;margin:0;padding:0;list-style:none}
nav.pages a{display:inline-block;padding:.4rem .9rem;border:1px solid ${c.secondary}55;border-radius:999px;text-decoration:none;font-weight:600}
article{max-width:48rem}
article img{max-width:100%;height:auto}
.cover{width:100%;max-height:360px;object-fit:cover;border-radius:12px}
footer{border-top:1px solid ${c.secondary}33;margin-top:2rem}
footer .wrap{display:grid;gap:1rem;padding-top:1.5rem;padding-bottom:2rem;grid-template-columns:1fr}
@media (min-width:640px){footer .wrap{grid-template-columns:2fr 1fr 1fr}}
footer h2{font-size:1rem;margin:0 0 .4rem;color:${c.secondary}}
footer ul{list-style:none;margin:0;padding:0}
.fine{font-size:.8rem;opacity:.75;grid-column:1/-1;margin:0}
.missing{text-align:center;padding:3rem 1rem}
.missing h1{font-size:2rem;margin:.5rem 0}
.missing .icon{font-size:3rem;margin:0}
`;

/**
 * The magazine's lead card: a collection's first offer, two columns and two
 * rows wide on a desktop, when four or more follow it (with fewer, a lead
 * would leave half the row empty). Its picture fills the height the two rows
 * give (adding none of its own), so no band opens between price and button.
 */
const LEAD = '.offers li:first-child:nth-last-child(n+5)';

/** What makes each theme look like itself, over the shared sheet. */
const THEME_STYLE: Record<StoreDoc['theme'], (c: Colors) => string> = {
  classic: () => `.offer{box-shadow:0 1px 3px #0000001f,0 4px 14px #00000012;border:0}`,
  minimal: (c) => `
.band{background:${c.background};color:${c.text};border-bottom:2px solid ${c.text}}
.collection h2,footer h2{text-transform:uppercase;letter-spacing:.12em;font-size:.95rem}
.offer{border-radius:0;border:1px solid ${c.text}22}
.cta{background:transparent;color:${c.text};border:2px solid ${c.text};border-radius:0}
.badge{border-radius:0;background:${c.text}}`,
  magazine: (c) => `
h1,h2,a.home,.offer h3{font-family:Georgia,"Times New Roman",serif}
.band{background:${c.secondary};color:${textOn(c.secondary)}}
.collection h2{font-size:1.9rem;border-bottom:3px solid ${c.secondary};padding-bottom:.2rem}
@media (min-width:960px){${LEAD}{grid-column:span 2;grid-row:span 2}${LEAD} h3{font-size:1.4rem}${LEAD} .media{aspect-ratio:auto;flex:1;min-height:8rem;position:relative}${LEAD} .media>*{position:absolute;inset:0}${LEAD} .body{flex:none}}
.cta{background:${c.secondary};color:${textOn(c.secondary)}}`,
  dark: (c) => `
.offer{background:#1e1e1e;border-color:#ffffff1f}
.media{background:#f5f5f5}
.noimg{background:#2a2a2a}
.price{color:${c.primary}}
footer{background:#0b0b0b}`,
};

function layout(store: StoreDoc, head: Head, home: string, main: string, jump: { href: string; label: string }[] = []): string {
  const c: Colors = { ...THEME_COLORS[store.theme], ...store.colors };
  const image = safeUrl(head.image);
  const meta = [
    `<title>${escapeHtml(head.title)}</title>`,
    head.noindex ? '<meta name="robots" content="noindex">' : '',
    head.description ? `<meta name="description" content="${escapeHtml(head.description)}">` : '',
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">`,
    `<meta name="theme-color" content="${escapeHtml(c.primary)}">`,
    `<meta property="og:type" content="${head.type}">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    head.description ? `<meta property="og:description" content="${escapeHtml(head.description)}">` : '',
    `<meta property="og:url" content="${escapeHtml(head.canonical)}">`,
    `<meta property="og:site_name" content="${escapeHtml(store.name)}">`,
    `<meta property="og:locale" content="pt_BR">`,
    image ? `<meta property="og:image" content="${escapeHtml(image)}">` : '',
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`,
  ].filter(Boolean);
  const logo = safeUrl(store.logo) ? `<img class="logo" src="${escapeHtml(store.logo!)}" alt="">` : '';
  const networks = Object.entries(store.networks).flatMap(([n, u]) =>
    safeUrl(u) ? [`<li><a href="${escapeHtml(u)}" rel="me noopener">${escapeHtml(n)}</a></li>`] : [],
  );
  const contact =
    store.contact && safeUrl(store.contact.url)
      ? `<p><a class="contact" href="${escapeHtml(store.contact.url)}" rel="noopener">${escapeHtml(store.contact.label ?? 'Fale com a gente')}</a></p>`
      : '';
  const hours = store.hours.length
    ? `<div><h2>Horários</h2><ul class="hours">${store.hours.map((h) => `<li>${escapeHtml(h.day)} ${escapeHtml(h.opens)}–${escapeHtml(h.closes)}</li>`).join('')}</ul></div>`
    : '';
  const jumps = jump.length
    ? `<nav aria-label="Seções"><ul class="jump">${jump.map((j) => `<li><a href="${escapeHtml(j.href)}">${escapeHtml(j.label)}</a></li>`).join('')}</ul></nav>`
    : '';
  return `<!doctype html>
<html lang="pt-BR" class="theme-${store.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${meta.join('\n')}
<style>${baseStyle(c)}${THEME_STYLE[store.theme](c)}</style>
</head>
<body>
<header class="band"><div class="wrap">${logo}<a class="home" href="${escapeHtml(home)}">${escapeHtml(store.name)}</a>${jumps}${store.tagline ? `<p class="tagline">${escapeHtml(store.tagline)}</p>` : ''}</div></header>
<main class="wrap">
${main}
</main>
<footer><div class="wrap">
<div><h2>${escapeHtml(store.name)}</h2>${store.tagline ? `<p>${escapeHtml(store.tagline)}</p>` : ''}${contact}</div>
${networks.length ? `<div><h2>Redes</h2><ul class="networks">${networks.join('')}</ul></div>` : ''}
${hours}
<p class="fine">Preços, estoque e cupons podem mudar a qualquer momento na loja. Links de afiliado: podemos receber uma comissão pelas compras, sem custo para você.</p>
</div></footer>
</body>
</html>
`;
}

/** Off the original price, in whole percent, when the offer says it is lower. */
const discountOf = (o: StorefrontOffer): number | null =>
  o.original_price !== null && o.price !== null && o.original_price > o.price ? Math.round((1 - o.price / o.original_price) * 100) : null;

function offerCard(o: StorefrontOffer): string {
  const href = safeUrl(o.url);
  const link = (inner: string, attrs: string) =>
    href ? `<a href="${escapeHtml(href)}" rel="nofollow sponsored noopener"${attrs}>${inner}</a>` : `<span${attrs}>${inner}</span>`;
  const picture = safeUrl(o.image)
    ? `<img src="${escapeHtml(o.image!)}" alt="" loading="lazy">`
    : `<span class="noimg" aria-hidden="true">${escapeHtml(o.title.trim().charAt(0).toUpperCase() || '?')}</span>`;
  const off = discountOf(o);
  const was = off !== null ? `<span class="was">${money(o.original_price!, o.currency)}</span>` : '';
  const price = o.price !== null ? `<span class="price">${money(o.price, o.currency)}</span>` : '';
  const coupon = o.coupon ? `<p class="coupon">Cupom <code>${escapeHtml(o.coupon)}</code></p>` : '';
  return (
    `<li class="offer">${link(picture, ' class="media" tabindex="-1" aria-hidden="true"')}` +
    (off !== null && off >= 1 ? `<span class="badge">-${off}%</span>` : '') +
    `<div class="body"><h3>${link(escapeHtml(o.title), '')}</h3><p class="prices">${was}${price}</p>${coupon}` +
    (href ? `<a class="cta" href="${escapeHtml(href)}" rel="nofollow sponsored noopener">Ver oferta</a>` : '') +
    `</div></li>`
  );
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
  // A share shows the store's first offer picture, else its logo.
  const picture = collections.flatMap((c) => c.offers).find((o) => safeUrl(o.image))?.image ?? store.logo;
  return layout(
    store,
    {
      title: store.seo_title ?? store.name,
      description: store.seo_description ?? store.tagline,
      canonical: home,
      image: picture,
      type: 'website',
    },
    home,
    `${about}\n${sections || '<p class="missing">Novas ofertas em breve.</p>'}\n${pageList}`,
    collections.map((c) => ({ href: `#${c.slug}`, label: c.title })),
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

/** The 404: in the store's look with a way back when the store is known, else a plain page in the default look. */
export function renderNotFound(store?: StoreDoc, home?: string): string {
  const body = (back: string) =>
    `<section class="missing"><p class="icon" aria-hidden="true">🔎</p><h1>Página não encontrada</h1>` +
    `<p>O endereço pode ter mudado ou a oferta acabou.</p>${back}</section>`;
  if (store && home) {
    const head: Head = { title: 'Página não encontrada', description: null, canonical: home, image: null, type: 'website', noindex: true };
    return layout(store, head, home, body(`<p><a class="contact" href="${escapeHtml(home)}">Voltar à loja</a></p>`));
  }
  const c = THEME_COLORS.classic;
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Página não encontrada</title>
<style>${baseStyle(c)}</style>
</head>
<body>
<main class="wrap">${body('<p>Confira o link que você recebeu.</p>')}</main>
</body>
</html>
`;
}
