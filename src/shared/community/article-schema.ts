import { mergeAttributes, Node, type Extensions } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';

/**
 * The article document: one list of Tiptap extensions that the editor edits with and the server renders
 * with, so what an author sees is what is stored and shown. Anything outside it (another node, mark or
 * attribute) is refused or dropped when an article is saved.
 */

/** Heading levels an article may use (the page's title is the h1). */
export const ARTICLE_HEADING_LEVELS = [2, 3, 4] as const;
/** Schemes a link may use; anything else is not a link. */
export const ARTICLE_LINK_PROTOCOLS = ['http', 'https', 'mailto'] as const;
/** What every link in a body carries: user content, opened apart from the page. */
export const ARTICLE_LINK_REL = 'nofollow ugc noopener';

/** A block hidden until the reader opens it (plot details): edited as a framed block, shown as `<details>`. */
export const Spoiler = Node.create({
  name: 'spoiler',
  group: 'block',
  content: 'block+',
  defining: true,
  parseHTML: () => [{ tag: 'div[data-spoiler]' }, { tag: 'details.hk-spoiler' }],
  renderHTML: ({ HTMLAttributes }) => [
    'div',
    mergeAttributes(HTMLAttributes, { 'data-spoiler': '', class: 'hk-spoiler' }),
    0,
  ],
});

/** An emoji of our sets inside the text: its code (`set/name`) and the image it had when inserted. */
export const Emoji = Node.create({
  name: 'emoji',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({
    code: { default: '' },
    src: { default: '' },
  }),
  parseHTML: () => [
    {
      tag: 'img[data-emoji]',
      getAttrs: (element) => ({
        code: element.getAttribute('data-emoji') ?? '',
        src: element.getAttribute('src') ?? '',
      }),
    },
  ],
  renderHTML: ({ node }) => [
    'img',
    {
      'data-emoji': String(node.attrs.code),
      src: String(node.attrs.src),
      alt: `表情:${String(node.attrs.code)}`,
      class: 'hk-emoji',
      width: '36',
      height: '36',
    },
  ],
  renderText: ({ node }) => `[emoji:${String(node.attrs.code)}]`,
});

/** The extensions of an article body, in the editor and on the server alike. */
export function articleExtensions(): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [...ARTICLE_HEADING_LEVELS] },
      link: {
        openOnClick: false,
        autolink: true,
        protocols: [...ARTICLE_LINK_PROTOCOLS],
        defaultProtocol: 'https',
        HTMLAttributes: { rel: ARTICLE_LINK_REL, target: '_blank' },
      },
    }),
    Image.configure({ inline: false, allowBase64: false, HTMLAttributes: { loading: 'lazy' } }),
    Spoiler,
    Emoji,
  ];
}
