import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPanel } from './ErrorPanel.tsx';

interface State {
  error: Error | null;
}

/** Shows the error page in place of an island that throws while rendering in the browser. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[island] render failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorPanel statusCode={500} message={this.state.error.message} />;
    return this.props.children;
  }
}

/** Wraps an island's root so a render error shows the error page in its place. */
export function withErrorBoundary<P extends object>(Inner: (props: P) => ReactNode) {
  const Wrapped = (props: P) => (
    <ErrorBoundary>
      <Inner {...props} />
    </ErrorBoundary>
  );
  Wrapped.displayName = `WithErrorBoundary(${Inner.name || 'Island'})`;
  return Wrapped;
}
