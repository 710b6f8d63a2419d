/** zh-CN messages of EPUB uploads: the upload control and the server's answers about a file. */
export const epub = {
  'epub.title': 'EPUB 文件',
} as const;
