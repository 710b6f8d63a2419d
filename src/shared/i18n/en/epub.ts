import type { AreaMessages } from '../message.ts';
import type { epub as reference } from '../zh-CN/epub.ts';

/** English messages of EPUB uploads. */
export const epub: AreaMessages<typeof reference> = {
  'epub.title': 'EPUB file',
  'epub.current': 'Current file: {size}',
  'epub.none': 'This volume has no EPUB yet.',
  'epub.metaVertical': 'Vertical writing',
  'epub.metaRtl': 'Pages turn right to left',
  'epub.choose': 'Choose an EPUB file',
  'epub.chosen': 'Chosen: {name} ({size})',
  'epub.upload': 'Upload',
  'epub.replace': 'Replace',
  'epub.remove': 'Remove EPUB',
  'epub.confirmReplace': "Replace this volume's EPUB with {name}? The old file will be deleted.",
  'epub.confirmRemove': "Remove this volume's EPUB? Readers will no longer be able to read it online.",
  'epub.confirm': 'Confirm',
  'epub.cancel': 'Cancel',
  'epub.progress': 'Uploading {percent}%',
  'epub.checking': 'Checking the file…',
  'epub.uploaded': 'The EPUB is uploaded.',
  'epub.removed': 'The EPUB is removed.',
  'epub.notEpub': 'Choose a file ending in .epub.',
  'epub.networkError': 'The upload was interrupted; check your connection and try again.',

  'epub.volumeNotFound': 'This volume was not found: it may have been deleted, or its series is not public yet.',
  'epub.noFile': 'This volume has no EPUB file yet.',
  'epub.creatorsOnly': 'Only the creator group and above may upload or remove EPUBs.',
  'epub.notYours':
    'This volume already has an EPUB: only the member who uploaded it, the creator of the series, or editors and above may replace or remove it.',
  'epub.contentType': 'Send the EPUB file itself as the request body, with Content-Type application/epub+zip.',
  'epub.tooLarge': 'An EPUB may be at most {max}; compress its images and upload it again.',
  'epub.busy': "This volume's EPUB is being changed by another upload; try again in a moment.",
  'epub.validationBusy': 'The server is checking other EPUBs right now; please upload again in a moment.',

  'epub.problem.EPUB_EMPTY': 'The file is empty; choose the EPUB file again.',
  'epub.problem.EPUB_NOT_ZIP': 'This is not a valid EPUB: an EPUB must be a ZIP archive.',
  'epub.problem.EPUB_UNSAFE_NAME':
    'The EPUB holds an unsafe file name {name} (with "..", an absolute path, a backslash or a control character), so it is refused.',
  'epub.problem.EPUB_DUPLICATE_ENTRY': 'The file {name} appears more than once in the EPUB.',
  'epub.problem.EPUB_TOO_MANY_ENTRIES': 'The EPUB holds too many files (at most {max}).',
  'epub.problem.EPUB_ENTRY_TOO_LARGE': 'The file {name} in the EPUB unpacks to more than {max}.',
  'epub.problem.EPUB_TOO_LARGE_UNPACKED': 'The EPUB unpacks to more than {max} in all.',
  'epub.problem.EPUB_COMPRESSION_RATIO':
    'The file {name} in the EPUB is compressed suspiciously well (a zip bomb?), so it is refused.',
  'epub.problem.EPUB_SIZE_MISMATCH':
    'The file {name} in the EPUB is not the size its header says; the file is damaged or was tampered with.',
  'epub.problem.EPUB_ENCRYPTED':
    'The file {name} in the EPUB is encrypted (DRM); only EPUBs without encryption are accepted.',
  'epub.problem.EPUB_MIMETYPE': 'The EPUB lacks a mimetype file saying application/epub+zip.',
  'epub.problem.EPUB_CONTAINER':
    'The EPUB lacks a valid META-INF/container.xml, or it does not name the package file (OPF).',
  'epub.problem.EPUB_OPF_MISSING': 'The package file {name} named by container.xml is not in the EPUB.',
  'epub.problem.EPUB_OPF_INVALID': 'The package file (OPF) is invalid: it needs a manifest and a non-empty spine.',
  'epub.problem.EPUB_SPINE_ITEM_MISSING': 'The reading order (spine) names {name}, which is not in the EPUB.',
  'epub.problem.EPUB_SCRIPT':
    "The EPUB's {name} contains a script; for readers' safety, books with scripts are not accepted.",
  'epub.problem.EPUB_EVENT_HANDLER':
    "The EPUB's {name} contains an event attribute (on…=); for readers' safety, books with scripts are not accepted.",
  'epub.problem.EPUB_JAVASCRIPT_URL':
    "The EPUB's {name} contains a javascript: link; for readers' safety, books with scripts are not accepted.",
  'epub.problem.EPUB_REMOTE_RESOURCE':
    "The EPUB's {name} loads {url} from another site; put that resource inside the EPUB.",
  'epub.problem.EPUB_DTD_DECLARATION':
    "The EPUB's {name} declares entities or default attributes (<!ENTITY>, <!ATTLIST>), which can turn text into markup; for readers' safety, such books are not accepted.",
};
