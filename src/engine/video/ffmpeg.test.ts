import { describe, expect, it } from 'vitest';
import { demuxerFor, forgetInput, guardedInputs, registerInput } from './ffmpeg.ts';

describe('ffmpeg inputs', () => {
  it('reads every input through file and pipe only, and a stored asset with its own demuxer', () => {
    registerInput('/scratch/asset-a', 'mov');
    try {
      expect(guardedInputs(['-ss', '1', '-i', '/scratch/asset-a', '-i', 'pipe:0', 'out.mp4'])).toEqual([
        '-ss',
        '1',
        '-protocol_whitelist',
        'file,pipe',
        '-f',
        'mov',
        '-i',
        '/scratch/asset-a',
        '-protocol_whitelist',
        'file,pipe',
        '-i',
        'pipe:0',
        'out.mp4',
      ]);
    } finally {
      forgetInput('/scratch/asset-a');
    }
    expect(guardedInputs(['-i', '/scratch/asset-a'])).toEqual([
      '-protocol_whitelist',
      'file,pipe',
      '-i',
      '/scratch/asset-a',
    ]);
  });

  it('knows a demuxer for each stored media type and none for anything else', () => {
    expect(
      ['video/mp4', 'audio/mp4', 'video/webm', 'audio/webm', 'audio/mpeg', 'audio/wav'].map(demuxerFor),
    ).toEqual(['mov', 'mov', 'matroska', 'matroska', 'mp3', 'wav']);
    expect(demuxerFor('application/vnd.apple.mpegurl')).toBeUndefined();
  });
});
