import { useEffect, useState } from 'react';
import type { UploadTarget } from '../../../stores/upload.ts';
import { Modal } from '../ui/Modal.tsx';
import { useT } from '../ui/use-t.ts';
import ImageUploader from './ImageUploader.tsx';

/** The insert dialog resizes large pictures to at most 2560×1440 before compressing (spec §9). */
export const INSERT_DIALOG_COMPRESS = { resize: true, maxWidth: 2560, maxHeight: 1440 } as const;
export const INSERT_DIALOG_SIZE_PX = 200;

export interface ImageInsertDialogProps {
  open: boolean;
  onClose: () => void;
  /** The public URLs of the images uploaded (or linked), in order, when "insert" is chosen. */
  onInsert: (urls: string[]) => void;
  uploadTarget: UploadTarget;
}

/**
 * Images to put into a text: up to 9 chosen, dropped, pasted or linked (200 px tiles, resized and
 * compressed), inserted together once all are done. Each opening starts empty.
 */
export function ImageInsertDialog({ open, onClose, onInsert, uploadTarget }: ImageInsertDialogProps) {
  const t = useT();
  const [uploaded, setUploaded] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!open) return;
    setUploaded([]);
    setRound((value) => value + 1);
  }, [open]);

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('composer.imageDialog')}
      size="large"
      footer={
        <>
          <button type="button" onClick={onClose} className="hk-btn hk-btn-ghost">
            {t('composer.cancel')}
          </button>
          <button
            type="button"
            onClick={() => {
              if (uploaded.length > 0) onInsert(uploaded);
              onClose();
            }}
            disabled={busy || uploaded.length === 0}
            className="hk-btn hk-btn-primary"
          >
            {t('composer.insert')}
          </button>
        </>
      }
    >
      <ImageUploader
        key={round}
        target={uploadTarget}
        size={INSERT_DIALOG_SIZE_PX}
        compress={INSERT_DIALOG_COMPRESS}
        allowLink
        onChange={setUploaded}
        onBusyChange={setBusy}
      />
    </Modal>
  );
}
