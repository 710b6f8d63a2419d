import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { checkIn, type CheckIn } from '../../../stores/checkin.ts';
import { Icon } from '../ui/Icon.tsx';
import { onDemand, useOnDemand } from '../ui/on-demand.ts';
import { useT } from '../ui/use-t.ts';

const calendar = onDemand(() => import('./CheckInCalendar.tsx'));

const base =
  'inline-flex size-full items-center justify-center gap-1.5 rounded-full text-sm font-medium transition-colors select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus aria-busy:cursor-progress';

/**
 * The header's check-in button (spec §2.4), for a logged-in member: '签到' checks in, '已签到' opens the
 * calendar. Below the `sm` width only its icon shows; the text stays its accessible name. Until the
 * store is ready it keeps the button's place.
 */
export function CheckInButton({ userId }: { userId: number }) {
  const [store, setStore] = useState<CheckIn | null>(null);
  useEffect(() => {
    let gone = false;
    void checkIn().then((ready) => !gone && setStore(ready));
    return () => {
      gone = true;
    };
  }, []);
  return store ? <Button userId={userId} store={store} /> : <LoadingShape />;
}

/** The button's shape while its store or the member's status loads (the header's slot looks the same). */
const LoadingShape = () => (
  <span className="block size-full rounded-full bg-zinc-200 dark:bg-zinc-700" aria-hidden="true" />
);

function Button({ userId, store }: { userId: number; store: CheckIn }) {
  const t = useT();
  const status = useStore(store.$status);
  const busy = useStore(store.$busy);
  const [open, setOpen] = useState(false);
  const [module, load] = useOnDemand(calendar);

  useEffect(() => store.start(userId, window), [store, userId]);

  if (!status) {
    return <LoadingShape />;
  }

  const done = status.isCheckIn;
  const label = t(done ? 'checkIn.buttonDone' : 'checkIn.button');
  const press = () => {
    if (!done) {
      void store.checkIn();
      return;
    }
    setOpen(true);
    void load();
  };

  return (
    <>
      <button
        type="button"
        onClick={press}
        // Loads the calendar's code ahead of a press.
        onPointerEnter={done ? () => void load().catch(() => {}) : undefined}
        aria-busy={busy || undefined}
        aria-haspopup={done ? 'dialog' : undefined}
        title={t(done ? 'checkIn.buttonDoneTitle' : 'checkIn.buttonTitle')}
        data-testid="header-check-in"
        data-checked-in={done}
        className={
          done
            ? `${base} bg-primary-50 text-accent hover:bg-primary-100 dark:bg-primary-900/40 dark:hover:bg-primary-900/70`
            : `${base} bg-accent-strong text-on-accent hover:bg-accent-strong-hover`
        }
      >
        <Icon name={done ? 'check' : 'calendar'} className="size-4 shrink-0" />
        <span className="sr-only sm:not-sr-only">{label}</span>
      </button>
      {module && (
        <module.CheckInCalendar
          open={open}
          onClose={() => setOpen(false)}
          store={store}
          historyHref={`/space/${userId}/setting/points`}
        />
      )}
    </>
  );
}
