/**
 * Who is clicking, from the request's headers alone (pure): a person on a
 * phone or a computer, or a machine — a crawler, a chat app fetching a link
 * preview, a browser prefetching. Machines' clicks are kept but counted as
 * `bot_clicks`, apart from people's `clicks`.
 */
import { boundedMemo } from '../memo';

export type AgentClass = 'mobile' | 'desktop' | 'bot' | 'preview' | 'prefetch';

/** Link-preview fetchers of chat apps and social networks. */
const PREVIEW =
  /whatsapp|facebookexternalhit|facebookcatalog|meta-externalagent|telegrambot|slackbot|slack-imgproxy|twitterbot|discordbot|linkedinbot|skypeuripreview|pinterest|vkshare|embedly|iframely|redditbot|mastodon|snapchat|viber|kakaotalk|line-poker|google-pagerenderer/i;
/** Crawlers, monitors and HTTP libraries. */
const BOT =
  /bot\b|bot\/|crawl|spider|slurp|googlebot|google-inspectiontool|adsbot|bingbot|bingpreview|yandex|baiduspider|duckduck|applebot|petalbot|semrush|ahrefs|mj12|headless|phantomjs|lighthouse|python-|curl\/|wget|httpclient|okhttp|go-http-client|axios|node-fetch|undici|java\/|libwww|scrapy|preview|monitor|uptime|checker/i;
const MOBILE = /mobile|android|iphone|ipad|ipod|windows phone|opera mini|iemobile/i;

/** The headers a browser sends when it only prefetches or prerenders. */
export function isPrefetch(header: (name: string) => string): boolean {
  return PURPOSE_HEADERS.some((name) => PREFETCH.test(header(name)));
}
const PURPOSE_HEADERS = ['purpose', 'sec-purpose', 'x-purpose', 'x-moz'];
const PREFETCH = /prefetch|prerender|preview/i;

/** The class a user agent string alone gives, for the last 2,000 strings met (browsers send few distinct ones; the patterns are long). */
const classOfUserAgent = boundedMemo<AgentClass>(2_000, (userAgent) => {
  if (!userAgent.trim()) return 'bot';
  if (PREVIEW.test(userAgent)) return 'preview';
  if (BOT.test(userAgent)) return 'bot';
  return MOBILE.test(userAgent) ? 'mobile' : 'desktop';
});

export function classifyAgent(userAgent: string, header: (name: string) => string): AgentClass {
  return isPrefetch(header) ? 'prefetch' : classOfUserAgent(userAgent);
}

export const isMachine = (c: AgentClass): boolean => c === 'bot' || c === 'preview' || c === 'prefetch';

/** The two-letter country a CDN in front of us reports (`CF-IPCountry`, `CloudFront-Viewer-Country`); null when none or unknown. */
export function countryOf(header: (name: string) => string): string | null {
  const raw = (header('cf-ipcountry') || header('cloudfront-viewer-country')).trim().toUpperCase();
  return /^[A-Z]{2}$/.test(raw) && raw !== 'XX' && raw !== 'T1' ? raw : null;
}

/** The host of the Referer, lower case; null when none or not a URL. */
export function referrerHost(referer: string): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host && host.length <= 253 ? host : null;
  } catch {
    return null;
  }
}
