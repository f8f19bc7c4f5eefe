import { mediaSchema, type Media } from '../../../../src/shared/media';
import { checked, CSRF_HEADER, refusal, unreachable } from '../../api/client';

/** The answer's body as JSON, or null when it is not (a proxy's page). */
function bodyOf(xhr: XMLHttpRequest): unknown {
  try {
    return JSON.parse(xhr.responseText);
  } catch {
    return null;
  }
}

/**
 * Uploads one file to the media library (`POST /media`, one multipart part `file`), telling its
 * progress as a fraction of the bytes sent. XMLHttpRequest, not fetch: fetch reports no upload
 * progress. Aborting the signal stops the upload and rejects with an AbortError.
 */
export function uploadMedia(
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<Media> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/media');
    xhr.setRequestHeader(CSRF_HEADER, '1');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      try {
        if (xhr.status !== 201) throw refusal('/media', xhr.status, xhr.statusText, bodyOf(xhr));
        resolve(checked(mediaSchema, '/media', xhr.status, bodyOf(xhr)));
      } catch (error) {
        reject(error as Error);
      }
    };
    xhr.onerror = () => reject(unreachable());
    xhr.onabort = () => reject(new DOMException('the upload was cancelled', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}
