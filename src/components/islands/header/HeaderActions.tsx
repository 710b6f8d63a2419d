import ColorModeToggle from '../ColorModeToggle.tsx';

interface HeaderActionsProps {
  showLogin: boolean;
  labels: { login: string; register: string };
}

/** The right side of the header. For visitors: colour mode, and register/login when the flag is on. */
export function HeaderActions({ showLogin, labels }: HeaderActionsProps) {
  return (
    <div className="flex shrink-0 items-center gap-1.5" data-testid="header-actions">
      <ColorModeToggle />
      {showLogin && (
        <>
          <a href="/register" className="hk-btn hk-btn-ghost hidden h-8 px-3 sm:inline-flex">
            {labels.register}
          </a>
          <a href="/login" className="hk-btn hk-btn-primary h-8 px-3">
            {labels.login}
          </a>
        </>
      )}
    </div>
  );
}
