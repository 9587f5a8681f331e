/** The nine toast positions: top, middle or bottom by left, center or right. */
export const TOAST_POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'middle-left',
  'middle-center',
  'middle-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;

export type ToastPosition = (typeof TOAST_POSITIONS)[number];
export type ToastStyle = 'error' | 'success' | 'info' | 'warning';

/** What a caller asks for; header and message are both optional. */
export interface ToastInput {
  header?: string;
  message?: string;
  position?: ToastPosition;
  style?: ToastStyle;
  autoHideMs?: number;
}

export interface Toast {
  id: number;
  header?: string;
  message?: string;
  position: ToastPosition;
  style: ToastStyle;
  autoHideMs: number;
}

/** SPEC.md: default position middle-center, default style error, auto-hide 9000 ms. */
export const TOAST_DEFAULTS = { position: 'middle-center', style: 'error', autoHideMs: 9000 } as const;

/** Timers, injectable so tests control time. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** The open toasts, each hidden after its time unless closed first. */
export class ToastQueue {
  private toasts: Toast[] = [];
  private handles = new Map<number, unknown>();
  private listeners = new Set<(t: readonly Toast[]) => void>();
  private nextId = 1;

  constructor(private readonly timers: Timers = realTimers) {}

  /** Shows a toast; answers its id. */
  show(input: ToastInput): number {
    const toast: Toast = {
      id: this.nextId++,
      position: input.position ?? TOAST_DEFAULTS.position,
      style: input.style ?? TOAST_DEFAULTS.style,
      autoHideMs: input.autoHideMs ?? TOAST_DEFAULTS.autoHideMs,
      ...(input.header !== undefined && { header: input.header }),
      ...(input.message !== undefined && { message: input.message }),
    };
    this.toasts = [...this.toasts, toast];
    if (toast.autoHideMs > 0)
      this.handles.set(
        toast.id,
        this.timers.set(() => this.close(toast.id), toast.autoHideMs),
      );
    this.emit();
    return toast.id;
  }

  /** Closes a toast now (its close button). */
  close(id: number): void {
    const h = this.handles.get(id);
    if (h !== undefined) this.timers.clear(h);
    this.handles.delete(id);
    const before = this.toasts.length;
    this.toasts = this.toasts.filter((t) => t.id !== id);
    if (this.toasts.length !== before) this.emit();
  }

  list(): readonly Toast[] {
    return this.toasts;
  }

  /** The open toasts grouped by position, in the order they were shown. */
  byPosition(): Map<ToastPosition, Toast[]> {
    const m = new Map<ToastPosition, Toast[]>();
    for (const t of this.toasts) m.set(t.position, [...(m.get(t.position) ?? []), t]);
    return m;
  }

  subscribe(fn: (t: readonly Toast[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit() {
    for (const fn of this.listeners) fn(this.toasts);
  }
}
