import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Tokenizer } from 'htmlparser2';
import { SAXParser, type EndTag, type StartTag, type Text } from 'parse5-sax-parser';

/**
 * The two ways a browser may read a book's markup. A section is XHTML, read by the XML parser, but
 * foliate-js (and the reader's sanitiser) read it as HTML when it is not well-formed, and HTML hides
 * and reveals different parts: `<!-->` ends an HTML comment at once and starts an XML one, `<style>`
 * holds text in HTML and elements in XML. The checks look at what either reading finds.
 */
export interface MarkupVisitor {
  /** A start tag: its local name in lower case; attributes by qualified name in lower case, values decoded. */
  start(name: string, attributes: readonly (readonly [string, string])[]): void;
  end(name: string): void;
  text(text: string): void;
}

const local = (qualified: string) => qualified.slice(qualified.lastIndexOf(':') + 1).toLowerCase();

/** A long text is read in pieces, the server serving other requests in between; no piece splits a character. */
const PIECE = 64 * 1024;
function* piecesOf(text: string): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE);
    if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end++;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * As an HTML parser reads it: the WHATWG tokenizer (parse5) with the tree builder's feedback, so comments
 * (`<!-->`, `<!--->`, `--!>`, bogus `<!…>` and `<?…>`), CDATA in SVG and MathML, and the raw text of
 * `<style>`, `<title>`, `<textarea>`… end where a browser ends them; what is left open runs to the end.
 * Scripting counts as on, as in the reader's frames (`<noscript>` holds text).
 */
export async function readAsHtml(text: string, visitor: MarkupVisitor): Promise<void> {
  const parser = new SAXParser();
  let failure: { error: unknown } | null = null;
  // A visitor that refuses stops the reading; the refusal is thrown once the stream has finished.
  const guarded =
    <T>(handle: (token: T) => void) =>
    (token: T) => {
      if (failure) return;
      try {
        handle(token);
      } catch (error) {
        failure = { error };
        parser.stop();
      }
    };
  parser.on(
    'startTag',
    guarded((tag: StartTag) =>
      visitor.start(
        local(tag.tagName),
        tag.attrs.map((a) => [(a.prefix ? `${a.prefix}:${a.name}` : a.name).toLowerCase(), a.value] as const),
      ),
    ),
  );
  parser.on(
    'endTag',
    guarded((tag: EndTag) => visitor.end(local(tag.tagName))),
  );
  parser.on(
    'text',
    guarded((token: Text) => visitor.text(token.text)),
  );
  const finished = once(parser, 'finish');
  for (const piece of piecesOf(text)) {
    if (failure) break;
    if (!parser.write(piece)) await once(parser, 'drain');
    else await nextTurn();
  }
  parser.end();
  await finished;
  if (failure) throw (failure as { error: unknown }).error;
}

/**
 * As an XML parser reads it, leniently (htmlparser2's tokenizer in XML mode): every element is one,
 * `<style>` and `<noscript>` included; comments run to `-->`, CDATA to `]]>`. Values are decoded with
 * `decode` (every HTML entity: an XHTML doctype lets browsers use them); every attribute is kept, repeated
 * or not. No element stack is kept, so deep nesting costs nothing.
 */
export async function readAsXml(
  text: string,
  visitor: MarkupVisitor,
  decode: (value: string) => string,
): Promise<void> {
  let name = '';
  let attributes: (readonly [string, string])[] = [];
  let attribute = '';
  let value = '';
  const slice = (start: number, end: number) => text.slice(start, end);
  const tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: false },
    {
      onopentagname(start, end) {
        name = local(slice(start, end));
        attributes = [];
      },
      onattribname(start, end) {
        attribute = slice(start, end).toLowerCase();
        value = '';
      },
      onattribdata(start, end) {
        value += slice(start, end);
      },
      onattribend() {
        attributes.push([attribute, decode(value)]);
      },
      onopentagend() {
        visitor.start(name, attributes);
      },
      onselfclosingtag() {
        visitor.start(name, attributes);
        visitor.end(name);
      },
      onclosetag(start, end) {
        visitor.end(local(slice(start, end)));
      },
      ontext(start, end) {
        visitor.text(decode(slice(start, end)));
      },
      oncdata(start, end, offset) {
        visitor.text(slice(start, end - offset));
      },
      onattribentity() {},
      ontextentity() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  for (const piece of piecesOf(text)) {
    tokenizer.write(piece);
    await nextTurn();
  }
  tokenizer.end();
}
