import { useStore } from '@nanostores/react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { ApiResponse } from '../../../shared/api.ts';
import { CREATOR_GROUPS } from '../../../shared/auth-model.ts';
import { formatFileSize } from '../../../shared/catalogue-format.ts';
import type { VolumeEpub } from '../../../shared/lightnovel/epub.contract.ts';
import { EPUB_CONTENT_TYPE, EPUB_MAX_BYTES, epubFilePath } from '../../../shared/lightnovel/lightnovel-model.ts';
import { api } from '../../../stores/api-client.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { $session, readAccessToken } from '../../../stores/session.ts';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

export interface EpubUploadProps {
  volumeId: number;
  /** The volume's EPUB as the page knows it; null when it has none. */
  initial: VolumeEpub['epub'];
  /** Members (ids) who may replace or remove it besides editors: its uploader and the series' creator. */
  owners?: readonly string[];
}

/** Groups that may replace or remove any volume's EPUB (the server's rule, epub.service.ts). */
const EPUB_MODERATORS = ['editor', 'admin', 'superAdmin'];

/**
 * May this member change the volume's EPUB? Any creator uploads to a volume without one; an existing one
 * only its uploader, the series' creator and editors and above replace or remove.
 */
export function mayChangeEpub(
  session: { _id: string; hikariUserGroup: string } | null,
  hasEpub: boolean,
  owners: readonly string[],
): boolean {
  if (!session || !(CREATOR_GROUPS as readonly string[]).includes(session.hikariUserGroup)) return false;
  return !hasEpub || EPUB_MODERATORS.includes(session.hikariUserGroup) || owners.includes(session._id);
}

/** A failed upload with the server's message (or null when no answer came back). */
class UploadRefused extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * POSTs the file itself with XMLHttpRequest, the one browser API that reports upload progress. A 401
 * (the access token ran out during a long upload) refreshes the tokens and tries once more.
 */
function sendEpub(
  volumeId: number,
  file: File,
  onProgress: (sent: number) => void,
  retried = false,
): Promise<VolumeEpub> {
  return new Promise<VolumeEpub>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', epubFilePath(volumeId));
    xhr.setRequestHeader('Content-Type', EPUB_CONTENT_TYPE);
    const token = readAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => onProgress(event.lengthComputable ? event.loaded / event.total : 0);
    xhr.onerror = () => reject(new UploadRefused(0, ''));
    xhr.onload = () => {
      let body: ApiResponse<VolumeEpub> | null = null;
      try {
        body = JSON.parse(xhr.responseText) as ApiResponse<VolumeEpub>;
      } catch {
        body = null;
      }
      if (body?.success) return resolve(body.data);
      reject(new UploadRefused(xhr.status, body?.message ?? xhr.statusText));
    };
    xhr.send(file);
  }).catch(async (error: unknown) => {
    if (retried || !(error instanceof UploadRefused) || error.status !== 401) throw error;
    if ((await api.refresh()) !== 'refreshed') throw error;
    return sendEpub(volumeId, file, onProgress, true);
  });
}

type Phase = 'idle' | 'uploading' | 'checking' | 'removing';

/**
 * The EPUB of a volume for the creator group and above: choose a .epub, upload or replace it (with a
 * confirmation), see its size and the upload's progress, the server's reason when a book is refused,
 * or remove it. The page is loaded again after a change, so its read button and cover follow.
 */
function EpubUpload({ volumeId, initial, owners = [] }: EpubUploadProps) {
  const t = useT();
  const session = useStore($session);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const ids = { heading: useId(), input: useId(), chosen: useId(), error: useId() };

  if (!mayChangeEpub(session, initial !== null, owners)) return null;
  const busy = phase !== 'idle';

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    setError(null);
    setStatus('');
    if (picked && !/\.epub$/i.test(picked.name)) {
      setFile(null);
      setError(t('epub.notEpub'));
    } else if (picked && picked.size > EPUB_MAX_BYTES) {
      setFile(null);
      setError(t('epub.tooLarge', { max: formatFileSize(EPUB_MAX_BYTES) }));
    } else {
      setFile(picked);
    }
  };

  const finish = (message: string) => {
    setStatus(message);
    window.location.reload();
  };

  const upload = async () => {
    if (!file) return;
    if (initial && !(await confirmDialog(t('epub.confirmReplace', { name: file.name })))) return;
    setError(null);
    setProgress(0);
    setPhase('uploading');
    setStatus(t('epub.progress', { percent: 0 }));
    try {
      await sendEpub(volumeId, file, (sent) => {
        const percent = Math.round(sent * 100);
        setProgress(percent);
        if (percent >= 100) {
          setPhase('checking');
          setStatus(t('epub.checking'));
        }
      });
      finish(t('epub.uploaded'));
    } catch (failure) {
      setPhase('idle');
      setStatus('');
      setError(failure instanceof Error && failure.message ? failure.message : t('epub.networkError'));
    }
  };

  const remove = async () => {
    if (!(await confirmDialog(t('epub.confirmRemove')))) return;
    setError(null);
    setPhase('removing');
    try {
      const { epubContract } = await import('../../../shared/lightnovel/epub.contract.ts');
      await api.call(epubContract.removeEpub, { params: { id: volumeId } });
      finish(t('epub.removed'));
    } catch (failure) {
      setPhase('idle');
      setError(failure instanceof Error && failure.message ? failure.message : t('epub.networkError'));
    }
  };

  const flags = [initial?.meta.vertical && t('epub.metaVertical'), initial?.meta.rtl && t('epub.metaRtl')].filter(
    Boolean,
  );

  return (
    <section aria-labelledby={ids.heading} className="hk-card flex flex-col gap-3 p-4">
      <h2 id={ids.heading} className="text-base font-semibold text-zinc-900 dark:text-white">
        {t('epub.title')}
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {initial ? t('epub.current', { size: formatFileSize(initial.size) }) : t('epub.none')}
        {flags.length > 0 && ` · ${flags.join(' · ')}`}
      </p>
      <input ref={input} id={ids.input} type="file" accept=".epub,application/epub+zip" hidden onChange={choose} />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className="hk-btn"
          disabled={busy}
          aria-describedby={file ? ids.chosen : undefined}
          onClick={() => input.current?.click()}
        >
          {t('epub.choose')}
        </button>
        <button
          type="button"
          className="hk-btn hk-btn-primary"
          disabled={!file || busy}
          aria-describedby={error ? ids.error : undefined}
          onClick={() => void upload()}
        >
          {initial ? t('epub.replace') : t('epub.upload')}
        </button>
        {initial && (
          <button type="button" className="hk-btn" disabled={busy} onClick={() => void remove()}>
            {t('epub.remove')}
          </button>
        )}
      </div>
      {file && (
        <p id={ids.chosen} className="text-sm break-all text-zinc-700 dark:text-zinc-300">
          {t('epub.chosen', { name: file.name, size: formatFileSize(file.size) })}
        </p>
      )}
      {phase === 'uploading' && (
        <progress
          max={100}
          value={progress}
          aria-label={t('epub.progress', { percent: progress })}
          className="w-full"
        />
      )}
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        {status}
      </p>
      {error && (
        <p id={ids.error} role="alert" className="text-sm break-words text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}

export default withLocale(EpubUpload);
