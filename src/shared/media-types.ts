// Platform-free, so the Electron shell's protocol handlers and the web player's server share it.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.wav': 'audio/wav',
  '.pdf': 'application/pdf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** The extension of a content type (parameters aside), for a file named by us; '' for unknown ones. */
export function extensionOfType(contentType: string): string {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return Object.keys(TYPES).find((extension) => TYPES[extension]?.split(';')[0] === type) ?? '';
}

/** The content type of a file by its extension, for the players' own file servers. */
export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const extension =
    dot > path.lastIndexOf('/') && dot > path.lastIndexOf('\\') ? path.slice(dot).toLowerCase() : '';
  return TYPES[extension] ?? 'application/octet-stream';
}
