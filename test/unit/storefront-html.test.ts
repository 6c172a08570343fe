import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeHtml, renderMarkdown } from '../../api/storefront-html';

describe('renderMarkdown: Markdown rendered, then sanitised', () => {
  test('ordinary Markdown renders', () => {
    const html = renderMarkdown(
      '# Título\n\nTexto **forte** e [um link](https://shop.example/p/1).\n\n- um\n- dois\n\n![foto](https://cdn.example/a.jpg)',
    );
    assert.match(html, /<h1>Título<\/h1>/);
    assert.match(html, /<strong>forte<\/strong>/);
    assert.match(html, /<a href="https:\/\/shop\.example\/p\/1" rel="nofollow noopener noreferrer">um link<\/a>/);
    assert.match(html, /<li>dois<\/li>/);
    assert.match(html, /<img src="https:\/\/cdn\.example\/a\.jpg" alt="foto" \/>/);
  });

  const hostile: [string, string][] = [
    ['a script tag', '<script>alert(1)</script>'],
    ['an inline handler', '<img src="x" onerror="alert(1)">'],
    ['a handler inside a Markdown image title', '![x](https://a.example/x.png "a\\" onerror=\\"alert(1)")'],
    ['a javascript: link', '[clique](javascript:alert(1))'],
    ['an encoded javascript: link', '[clique](jav&#x61;script:alert(1))'],
    ['a javascript: autolink', '<javascript:alert(1)>'],
    ['a data: image', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
    ['a vbscript: link', '[x](vbscript:msgbox(1))'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>'],
    ['a style attribute', '<p style="background:url(javascript:alert(1))">x</p>'],
    ['an svg', '<svg onload="alert(1)"></svg>'],
  ];
  for (const [what, source] of hostile) {
    test(`${what} renders inert`, () => {
      const html = renderMarkdown(source);
      // Attribute names only: a quoted value (escaped by the renderer) may say anything.
      const names = html.replace(/"[^"]*"/g, '""');
      assert.doesNotMatch(names, /<script|<iframe|<svg|<\w+\b[^>]*\s(?:on\w+|style)=/i, html);
      assert.doesNotMatch(html, /(?:href|src)="\s*(?:javascript|vbscript|data):/i, html);
    });
  }

  test('mailto and http links are kept; other schemes dropped', () => {
    assert.match(renderMarkdown('[fale](mailto:loja@example.com)'), /href="mailto:loja@example.com"/);
    assert.match(renderMarkdown('[site](http://example.com)'), /href="http:\/\/example.com"/);
    assert.doesNotMatch(renderMarkdown('[ftp](ftp://example.com/x)'), /href=/);
  });

  test('escapeHtml escapes the five characters', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});
