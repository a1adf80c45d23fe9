import { PICTURE_PIXEL_RATIO } from '../picture/element-picture';
import { canvasPng } from '../picture/picture-output';
import { composeTimelinePicture, pictureLayout, type TimelinePicture } from './timeline-picture';

/**
 * The timeline's picture as a PNG: drawn again at PICTURE_PIXEL_RATIO into a canvas of its own
 * (whatever the screen's pixel ratio), so bars and text are sharp, not the screen upscaled.
 * Where its rows went (the plot's box) is left on `marked` as `data-picture-plot` (and the room
 * above the axis as `data-picture-decor`), for whoever compares the picture with the page.
 * `decor`, a picture of what the view shows above the axis (a run's bands), goes in the room
 * `picture.decorHeight` keeps for it.
 */
export async function timelinePicturePng(
  picture: TimelinePicture,
  marked?: HTMLElement | null,
  decor?: HTMLCanvasElement | null,
): Promise<Blob> {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas to draw the picture on');
  const size = pictureLayout(ctx, picture);
  canvas.width = Math.round(size.width * PICTURE_PIXEL_RATIO);
  canvas.height = Math.round(size.height * PICTURE_PIXEL_RATIO);
  // resizing reset the context: compose lays out again on it
  const layout = composeTimelinePicture(ctx, picture, PICTURE_PIXEL_RATIO);
  if (decor && layout.decor) {
    const { x, y, width, height } = layout.decor;
    ctx.drawImage(decor, x, y, width, height);
  }
  if (marked) {
    marked.dataset.picturePlot = JSON.stringify(layout.plot);
    if (layout.decor) marked.dataset.pictureDecor = JSON.stringify(layout.decor);
  }
  return canvasPng(canvas);
}
