// The signing pad: drawing with a finger, pen or mouse (pointer events) on a canvas. Without this script the
// pad stays hidden and the typed name is the way to sign.
'use strict';

(function () {
  const form = document.querySelector('form.signing');
  const canvas = document.getElementById('signature-pad');
  if (!form || !canvas || !canvas.getContext) return;

  const area = document.getElementById('signature-area');
  const field = document.getElementById('signature-data');
  const status = document.getElementById('signature-status');
  const clear = document.getElementById('signature-clear');
  const context = canvas.getContext('2d');
  let drawn = false;
  /** Where the pointer drawing the current stroke was last, in the bitmap's pixels. */
  let last = null;

  area.hidden = false;
  context.lineWidth = 6;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.strokeStyle = '#10243e';

  function setDrawn(value) {
    if (drawn === value) return;
    drawn = value;
    status.textContent = value ? 'Unterschrift erfasst.' : 'Das Unterschriftenfeld ist leer.';
  }

  /**
   * The pointer's position in the bitmap's pixels. The bitmap keeps its size and the stylesheet keeps its aspect
   * ratio, so however wide the pad is shown (a phone turned), the drawing only scales.
   */
  function point(event) {
    const box = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) * canvas.width) / box.width,
      y: ((event.clientY - box.top) * canvas.height) / box.height,
    };
  }

  function stroke(from, to) {
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
  }

  canvas.addEventListener('pointerdown', function (event) {
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    last = point(event);
  });

  canvas.addEventListener('pointermove', function (event) {
    if (!last) return;
    const next = point(event);
    stroke(last, next);
    last = next;
    setDrawn(true);
  });

  function end() {
    last = null;
  }
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);

  clear.addEventListener('click', function () {
    context.clearRect(0, 0, canvas.width, canvas.height);
    setDrawn(false);
    status.textContent = 'Unterschrift gelöscht.';
  });

  /** A refused form brings back a valid drawing: it is shown again and still counts. */
  function restore(dataUrl) {
    const image = new Image();
    image.onload = function () {
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      setDrawn(true);
    };
    image.src = dataUrl;
  }

  form.addEventListener('submit', function () {
    field.value = drawn ? canvas.toDataURL('image/png') : '';
  });

  if (field.value) restore(field.value);
})();
