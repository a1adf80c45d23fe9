import { PICTURE_PIXEL_RATIO } from '../picture/element-picture';
import { canvasPng } from '../picture/picture-output';
import {
  composeTimelinePicture,
  pictureLayout,
  type PictureLayout,
  type TimelinePicture,
} from './timeline-picture';

/**
 * The timeline's picture as a PNG: drawn again at PICTURE_PIXEL_RATIO into a canvas of its own
 * (whatever the screen's pixel ratio), so bars and text are sharp, not the screen upscaled.
 */
export async function timelinePicturePng(
  picture: TimelinePicture,
): Promise<{ blob: Blob; layout: PictureLayout }> {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas to draw the picture on');
  const size = pictureLayout(ctx, picture);
  canvas.width = Math.round(size.width * PICTURE_PIXEL_RATIO);
  canvas.height = Math.round(size.height * PICTURE_PIXEL_RATIO);
  // resizing reset the context: compose lays out again on it
  const layout = composeTimelinePicture(ctx, picture, PICTURE_PIXEL_RATIO);
  return { blob: await canvasPng(canvas), layout };
}
