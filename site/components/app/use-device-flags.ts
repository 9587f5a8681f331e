'use client';
import { useEffect, useState } from 'react';
import { deviceFlags, readDevice, type DeviceFlags } from '@/lib/device';

/** The device flags, kept current as the window resizes; null until mounted (the
 * static HTML cannot know the device). Also mirrors them on <html> for CSS. */
export function useDeviceFlags(): DeviceFlags | null {
  const [flags, setFlags] = useState<DeviceFlags | null>(null);
  useEffect(() => {
    const update = () => {
      const f = deviceFlags(readDevice(window));
      document.documentElement.dataset.mobile = String(f.mobile);
      document.documentElement.dataset.tablet = String(f.tablet);
      setFlags((prev) => (prev && prev.mobile === f.mobile && prev.tablet === f.tablet ? prev : f));
    };
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return flags;
}
