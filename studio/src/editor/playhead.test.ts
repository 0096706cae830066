import { describe, expect, it } from 'vitest';
import { type Clock, formatTime, Playhead, spaceTogglesPlay } from './playhead.ts';

/** A clock the test advances by hand; `tick()` runs the frame callback that is waiting. */
function fakeClock() {
  let now = 1000;
  let waiting: (() => void) | null = null;
  let handles = 0;
  const clock: Clock = {
    now: () => now,
    frame: (callback) => {
      waiting = callback;
      return ++handles;
    },
    cancel: () => {
      waiting = null;
    },
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      const run = waiting;
      waiting = null;
      run?.();
    },
    get pending() {
      return waiting !== null;
    },
  };
}

describe('playhead', () => {
  it('plays from the playhead in real time and stops on the last frame of the page', () => {
    const time = fakeClock();
    const playhead = new Playhead(() => 2000, time.clock);
    const seen: number[] = [];
    playhead.subscribe((s) => seen.push(s.timeMs));
    playhead.seek(500);
    playhead.play();
    expect(playhead.get()).toMatchObject({ playing: true, previewing: true, timeMs: 500 });
    time.advance(250);
    expect(playhead.get().timeMs).toBe(750);
    time.advance(2000);
    expect(playhead.get()).toMatchObject({ playing: false, previewing: true, timeMs: 2000 });
    expect(time.pending).toBe(false);
    expect(seen).toEqual([500, 500, 750, 2000]);
    // Play at the end starts again from the beginning.
    playhead.play();
    expect(playhead.get().timeMs).toBe(0);
  });

  it('pauses where it is, keeps previewing, and goes back to editing without losing the time', () => {
    const time = fakeClock();
    const playhead = new Playhead(() => 5000, time.clock);
    playhead.toggle();
    time.advance(1200);
    playhead.toggle();
    expect(playhead.get()).toMatchObject({ playing: false, previewing: true, timeMs: 1200 });
    time.advance(500);
    expect(playhead.get().timeMs).toBe(1200);
    playhead.edit();
    expect(playhead.get()).toMatchObject({ playing: false, previewing: false, timeMs: 1200 });
    playhead.reset();
    expect(playhead.get()).toMatchObject({ previewing: false, timeMs: 0 });
  });

  it('scrubs within the page, pausing, and steps exactly onto 30 fps frames', () => {
    const time = fakeClock();
    const playhead = new Playhead(() => 1000, time.clock);
    playhead.play();
    playhead.seek(4000);
    expect(playhead.get()).toMatchObject({ playing: false, previewing: true, timeMs: 1000 });
    playhead.seek(-5);
    expect(playhead.get().timeMs).toBe(0);
    playhead.step(1);
    expect(playhead.get().timeMs).toBeCloseTo(1000 / 30, 10);
    playhead.step(2);
    expect(playhead.get().timeMs).toBe(100);
    playhead.seek(110);
    playhead.step(-1);
    expect(playhead.get().timeMs).toBe(100);
    playhead.seek(110);
    playhead.step(1);
    expect(playhead.get().timeMs).toBeCloseTo(400 / 3, 10);
    playhead.step(-100);
    expect(playhead.get().timeMs).toBe(0);
  });

  it('keeps the playhead on a page that got shorter', () => {
    let length = 5000;
    const playhead = new Playhead(() => length, fakeClock().clock);
    playhead.seek(4000);
    length = 3000;
    playhead.fit();
    expect(playhead.get().timeMs).toBe(3000);
  });

  it('tells listeners only about changes', () => {
    const playhead = new Playhead(() => 5000, fakeClock().clock);
    let calls = 0;
    playhead.subscribe(() => calls++);
    playhead.edit();
    playhead.setTransitions(true);
    expect(calls).toBe(0);
    playhead.setTransitions(false);
    expect(calls).toBe(1);
  });
});

describe('Space', () => {
  it('plays unless it would type or press something', () => {
    expect(spaceTogglesPlay(null)).toBe(true);
    expect(spaceTogglesPlay({ tagName: 'DIV' })).toBe(true);
    expect(spaceTogglesPlay({ tagName: 'INPUT', type: 'range' })).toBe(true);
    expect(spaceTogglesPlay({ tagName: 'DIV', role: 'slider' })).toBe(true);
    expect(spaceTogglesPlay({ tagName: 'INPUT', type: 'text' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'INPUT', type: 'number' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'INPUT' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'TEXTAREA' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'SELECT' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'BUTTON' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'DIV', role: 'tab' })).toBe(false);
    expect(spaceTogglesPlay({ tagName: 'DIV', isContentEditable: true })).toBe(false);
  });
});

describe('formatTime', () => {
  it('shows seconds with two decimals', () => {
    expect(formatTime(0)).toBe('0.00 s');
    expect(formatTime(1234)).toBe('1.23 s');
    expect(formatTime(-3)).toBe('0.00 s');
  });
});
