import { ToastQueue } from './toast';

/** The page's one toast queue: call toaster.show(...) from anywhere in the app. */
export const toaster = new ToastQueue();
