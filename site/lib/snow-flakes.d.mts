/** One snow circle of the logo: where, how big, which fall and when it starts. */
export interface SnowFlake {
  x: number;
  y: number;
  size: number;
  speed: string;
  delay: string;
}
export const SNOW_FLAKES: SnowFlake[];
