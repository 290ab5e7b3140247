// @ts-check
// One short tone, for the pages' optional sounds (a move played, a game waiting for you):
// WebAudio, no sound file; silent where the browser has no audio or has not let the page
// play yet.

/** @type {AudioContext | null} */
let audio = null;

/**
 * Play a tone of `frequency` Hz at `volume` (0 to 1) fading out over `seconds`.
 * @param {number} frequency
 * @param {number} volume
 * @param {number} seconds
 */
export function playTone(frequency, volume, seconds) {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + seconds);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + seconds + 0.01);
  } catch { /* no sound here */ }
}
