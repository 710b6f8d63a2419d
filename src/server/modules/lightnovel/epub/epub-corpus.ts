import type { EpubProblem } from '../../../../shared/lightnovel/epub.contract.ts';
import { writeZip, type ZipEntry } from './epub-build.ts';

/**
 * Small EPUBs made in code for tests: one valid book and a corpus of hostile or broken ones, each
 * with the code the validator must refuse it with. Some are made by writing a zip and then changing
 * bytes in it, since no well-behaved zip writer produces them (traversal names, lying sizes, encryption).
 */

const CONTAINER = `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

export interface CorpusBook {
  /** Chapter bodies (inside `<body>`), one spine item each. */
  chapters?: string[];
  /** Extra `<head>` markup of every chapter. */
  head?: string;
  /** Extra manifest items. */
  manifest?: string;
  /** Extra entries. */
  entries?: ZipEntry[];
  /** Entries to leave out, by name. */
  without?: string[];
  /** Replaces the package document. */
  opf?: string;
  /** Replaces container.xml. */
  container?: string;
}

const chapter = (body: string, head = '') => `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>章</title>${head}</head>
<body>${body}</body></html>`;

/** The entries of a small valid EPUB 3, changed as `book` says. */
export function corpusEntries(book: CorpusBook = {}): ZipEntry[] {
  const chapters = book.chapters ?? ['<h1>第一章</h1><p>雨停了，站台上只剩下一盏灯。</p>'];
  const opf =
    book.opf ??
    `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000001</dc:identifier>
    <dc:title>测试之书</dc:title><dc:language>zh-CN</dc:language>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    ${chapters.map((_, i) => `<item id="c${i + 1}" href="c${i + 1}.xhtml" media-type="application/xhtml+xml"/>`).join('\n    ')}
    ${book.manifest ?? ''}
  </manifest>
  <spine>${chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join('')}</spine>
</package>`;
  const entries: ZipEntry[] = [
    { name: 'mimetype', data: 'application/epub+zip', compress: false },
    { name: 'META-INF/container.xml', data: book.container ?? CONTAINER },
    { name: 'OEBPS/content.opf', data: opf },
    {
      name: 'OEBPS/nav.xhtml',
      data: chapter('<nav epub:type="toc"><ol><li><a href="c1.xhtml">第一章</a></li></ol></nav>'),
    },
    ...chapters.map((body, i) => ({ name: `OEBPS/c${i + 1}.xhtml`, data: chapter(body, book.head) })),
    ...(book.entries ?? []),
  ];
  return entries.filter((entry) => !book.without?.includes(entry.name));
}

export const corpusEpub = (book: CorpusBook = {}): Promise<Uint8Array> => writeZip(corpusEntries(book));

/** Replaces every occurrence of an entry name in a zip (local header and central directory) with another of equal length. */
function renameEntry(zip: Uint8Array, from: string, to: string): Uint8Array {
  const a = Buffer.from(from, 'latin1');
  const b = Buffer.from(to, 'latin1');
  if (a.length !== b.length) throw new Error('names must have the same length');
  const out = Buffer.from(zip);
  for (let at = out.indexOf(a); at !== -1; at = out.indexOf(a, at + 1)) b.copy(out, at);
  return new Uint8Array(out);
}

/** Walks the local headers and central directory records of a zip, calling `edit` with each record's offset. */
function editHeaders(zip: Uint8Array, name: string, edit: (view: DataView, at: number, central: boolean) => void) {
  const out = new Uint8Array(zip);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const wanted = Buffer.from(name);
  for (let at = 0; at < out.length - 46; at++) {
    const signature = view.getUint32(at, true);
    if (signature !== 0x04034b50 && signature !== 0x02014b50) continue;
    const central = signature === 0x02014b50;
    const nameLength = view.getUint16(at + (central ? 28 : 26), true);
    const nameAt = at + (central ? 46 : 30);
    if (Buffer.from(out.subarray(nameAt, nameAt + nameLength)).equals(wanted)) edit(view, at, central);
  }
  return out;
}

/** The zip says the entry unpacks to `size` bytes, whatever it really holds. */
function lieAboutSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  return editHeaders(zip, name, (view, at, central) => view.setUint32(at + (central ? 24 : 22), size, true));
}

/** Sets the "encrypted" flag of an entry (traditional zip encryption). */
function markEncrypted(zip: Uint8Array, name: string): Uint8Array {
  return editHeaders(zip, name, (view, at, central) => {
    const flagAt = at + (central ? 8 : 6);
    view.setUint16(flagAt, view.getUint16(flagAt, true) | 1, true);
  });
}

export interface CorpusCase {
  name: string;
  problem: EpubProblem;
  bytes: Uint8Array;
}

/** Repeatable filler text that compresses about as well as prose (no long runs). */
function prose(bytes: number): string {
  const words = ['雨', '站台', '灯', '猫', '信', '海', '书', '星', '风', '夜'];
  let text = '';
  let state = 7;
  while (text.length * 3 < bytes) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += words[state % words.length] + (state % 7 === 0 ? '。' : '');
  }
  return text;
}

/** A chapter as UTF-16 (little endian, with its byte order mark), as some old tools write XHTML. */
const utf16 = (text: string) =>
  new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));

/** Every hostile or broken book the validator (and the upload route) must refuse, with its code. */
export async function hostileCorpus(): Promise<CorpusCase[]> {
  const cases: CorpusCase[] = [];
  const add = async (name: string, problem: EpubProblem, bytes: Uint8Array | Promise<Uint8Array>) =>
    cases.push({ name, problem, bytes: await bytes });

  await add('not a zip', 'EPUB_NOT_ZIP', new TextEncoder().encode('这不是压缩包，只是一段文字。'.repeat(20)));
  await add(
    'zip bomb: 16 MB of zeros packed into a few KB',
    'EPUB_COMPRESSION_RATIO',
    corpusEpub({ entries: [{ name: 'OEBPS/images/bomb.png', data: new Uint8Array(16 * 1024 * 1024) }] }),
  );
  const lying = await corpusEpub({ entries: [{ name: 'OEBPS/notes.txt', data: prose(200_000) }] });
  await add('header sizes that lie', 'EPUB_SIZE_MISMATCH', lieAboutSize(lying, 'OEBPS/notes.txt', 1000));
  const named = (placeholder: string) => corpusEpub({ entries: [{ name: placeholder, data: 'x' }] });
  await add(
    'traversal name ../x',
    'EPUB_UNSAFE_NAME',
    renameEntry(await named('zz/evil.txt'), 'zz/evil.txt', '../evil.txt'),
  );
  await add(
    'absolute name /etc/x',
    'EPUB_UNSAFE_NAME',
    renameEntry(await named('zetc/passwd'), 'zetc/passwd', '/etc/passwd'),
  );
  await add('backslash name a\\b', 'EPUB_UNSAFE_NAME', renameEntry(await named('aZb.txt'), 'aZb.txt', 'a\\b.txt'));
  await add(
    'control character in a name',
    'EPUB_UNSAFE_NAME',
    renameEntry(await named('aZb.txt'), 'aZb.txt', 'a\u0001b.txt'),
  );
  await add('encrypted entry', 'EPUB_ENCRYPTED', markEncrypted(await corpusEpub(), 'OEBPS/c1.xhtml'));
  await add(
    'DRM declared in encryption.xml',
    'EPUB_ENCRYPTED',
    corpusEpub({
      entries: [
        {
          name: 'META-INF/encryption.xml',
          data: `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/c1.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`,
        },
      ],
    }),
  );
  await add('missing mimetype', 'EPUB_MIMETYPE', corpusEpub({ without: ['mimetype'] }));
  await add(
    'wrong mimetype',
    'EPUB_MIMETYPE',
    writeZip(corpusEntries().map((e) => (e.name === 'mimetype' ? { ...e, data: 'application/zip' } : e))),
  );
  await add('missing container', 'EPUB_CONTAINER', corpusEpub({ without: ['META-INF/container.xml'] }));
  await add(
    'container without a rootfile',
    'EPUB_CONTAINER',
    corpusEpub({ container: '<container><rootfiles/></container>' }),
  );
  await add('missing OPF', 'EPUB_OPF_MISSING', corpusEpub({ without: ['OEBPS/content.opf'] }));
  await add(
    'OPF without a spine',
    'EPUB_OPF_INVALID',
    corpusEpub({
      opf: '<package><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest></package>',
    }),
  );
  await add('spine item missing', 'EPUB_SPINE_ITEM_MISSING', corpusEpub({ without: ['OEBPS/c1.xhtml'] }));
  await add('script in XHTML', 'EPUB_SCRIPT', corpusEpub({ chapters: ['<p>hi</p><SCRIPT>alert(1)</SCRIPT>'] }));
  await add(
    'script in an SVG',
    'EPUB_SCRIPT',
    corpusEpub({
      entries: [
        {
          name: 'OEBPS/images/a.svg',
          data: '<svg xmlns="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg>',
        },
      ],
    }),
  );
  await add(
    'onload attribute',
    'EPUB_EVENT_HANDLER',
    corpusEpub({ chapters: ['<img src="a.png" onload="alert(1)"/>'] }),
  );
  await add(
    'onerror without quotes',
    'EPUB_EVENT_HANDLER',
    corpusEpub({ chapters: ['<img src=x OnError=alert(1) />'] }),
  );
  await add(
    'javascript: link',
    'EPUB_JAVASCRIPT_URL',
    corpusEpub({ chapters: ['<a href="javascript:alert(1)">go</a>'] }),
  );
  await add(
    'javascript: link hidden by entities',
    'EPUB_JAVASCRIPT_URL',
    corpusEpub({ chapters: ['<a href="&#106;ava&#x09;script&colon;alert(1)">go</a>'] }),
  );
  await add(
    'remote image',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ chapters: ['<img src="https://example.com/a.png" alt=""/>'] }),
  );
  await add(
    'remote stylesheet (protocol-relative)',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ head: '<link rel="stylesheet" href="//cdn.example.com/a.css"/>' }),
  );
  await add(
    'remote SVG image',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({
      chapters: [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="http://example.com/a.jpg"/></svg>',
      ],
    }),
  );
  await add(
    'remote font in CSS',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({
      entries: [
        { name: 'OEBPS/style.css', data: '@font-face { font-family: x; src: url( "https://example.com/x.woff" ); }' },
      ],
    }),
  );
  await add(
    'remote manifest item',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ manifest: '<item id="r" href="https://example.com/x.jpg" media-type="image/jpeg"/>' }),
  );
  await add(
    'script in UTF-16 XHTML',
    'EPUB_SCRIPT',
    corpusEpub({
      entries: [
        {
          name: 'OEBPS/u16.xhtml',
          data: utf16(
            '<?xml version="1.0" encoding="UTF-16"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>',
          ),
        },
      ],
    }),
  );
  await add(
    'iframe srcdoc',
    'EPUB_SCRIPT',
    corpusEpub({ chapters: ['<iframe srcdoc="&lt;script&gt;parent.alert(document.cookie)&lt;/script&gt;"></iframe>'] }),
  );
  await add(
    'remote image without slashes (https:host)',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ chapters: ['<img src="https:evil.example/x.png" alt=""/>'] }),
  );
  await add(
    'remote image with backslashes (https:\\\\host)',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ chapters: ['<img src="https:\\\\evil.example/x.png" alt=""/>'] }),
  );
  await add(
    'remote CSS url without slashes',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ chapters: ['<p style="background:url(https:evil.example/x.png)">x</p>'] }),
  );
  await add(
    'remote stylesheet in capitals',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ head: '<link rel="stylesheet" href="HTTPS://evil.example/a.css"/>' }),
  );
  await add(
    'meta refresh',
    'EPUB_REMOTE_RESOURCE',
    corpusEpub({ head: '<meta http-equiv="refresh" content="0;https://evil.example/"/>' }),
  );
  await add(
    'javascript: in an SVG animation',
    'EPUB_JAVASCRIPT_URL',
    corpusEpub({
      chapters: [
        '<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="x;javascript:alert(1)"/><text y="20">click</text></a></svg>',
      ],
    }),
  );
  // Markup that hides from a scanner which does not end comments, CDATA and raw text where a browser does.
  const img = '<img src="x" onerror="alert(1)"/>';
  const tricks: [string, EpubProblem, string][] = [
    ['markup after <!-->', 'EPUB_EVENT_HANDLER', `<!-->${img}-->`],
    ['markup after <!--->', 'EPUB_JAVASCRIPT_URL', '<!---><a href="javascript:alert(1)">x</a>-->'],
    ['markup after --!>', 'EPUB_EVENT_HANDLER', `<!-- x --!>${img}-->`],
    ['markup after a bogus comment', 'EPUB_EVENT_HANDLER', `<![if !IE]>${img}<![endif]>`],
    ['markup after CDATA in SVG', 'EPUB_EVENT_HANDLER', `<svg><![CDATA[><!--]]>${img}--></svg>`],
    ['markup after raw text', 'EPUB_EVENT_HANDLER', `<title><!--</title>${img}-->`],
    ['noscript', 'EPUB_SCRIPT', `<noscript><p title="</noscript>${img}"></p></noscript>`],
  ];
  for (const [name, problem, body] of tricks) await add(name, problem, corpusEpub({ chapters: [body] }));
  await add(
    'entity declared in the doctype',
    'EPUB_DTD_DECLARATION',
    corpusEpub({
      entries: [
        {
          name: 'OEBPS/dtd.xhtml',
          data: `<!DOCTYPE html [<!ENTITY x "&#60;img src='x' onerror='alert(1)'/&#62;">]><html xmlns="http://www.w3.org/1999/xhtml"><body>&x;</body></html>`,
        },
      ],
    }),
  );
  return cases;
}
