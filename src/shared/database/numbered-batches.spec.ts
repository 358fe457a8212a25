import { NumberedBatches, type Pending } from './numbered-batches';

/** A promise with its resolver exposed, to hold a unit of work in progress. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('NumberedBatches', () => {
  function harness(options = { max: 32, patienceMs: 10_000 }) {
    const log: string[] = [];
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    const batches = new NumberedBatches<string, string>(
      async (write) => {
        log.push(`alone ${write}`);
        const gate = deferred<void>();
        gates.push(gate);
        await gate.promise;
        return `${write} done alone`;
      },
      async (pending: ReadonlyArray<Pending<string, string>>) => {
        log.push(`together ${pending.map((p) => p.write).join(',')}`);
        const gate = deferred<void>();
        gates.push(gate);
        await gate.promise;
        for (const p of pending) p.resolve(`${p.write} done together`);
      },
      options,
    );
    return { batches, log, gates };
  }

  it('runs a write that comes to an idle lane alone at once, without waiting for company', async () => {
    const { batches, log, gates } = harness();
    const a = batches.submit('lane', 'a');
    await flush();
    expect(log).toEqual(['alone a']);
    gates[0].resolve();
    await expect(a).resolves.toBe('a done alone');
  });

  it('runs the writes that came while the lane was busy as one batch after it, in the order they came', async () => {
    const { batches, log, gates } = harness();
    const a = batches.submit('lane', 'a');
    const b = batches.submit('lane', 'b');
    const c = batches.submit('lane', 'c');
    await flush();
    expect(log).toEqual(['alone a']);
    gates[0].resolve();
    await expect(a).resolves.toBe('a done alone');
    await flush();
    expect(log).toEqual(['alone a', 'together b,c']);
    gates[1].resolve();
    await expect(b).resolves.toBe('b done together');
    await expect(c).resolves.toBe('c done together');
  });

  it('keeps lanes apart: a write of another lane does not wait', async () => {
    const { batches, log } = harness();
    void batches.submit('one', 'a');
    void batches.submit('two', 'b');
    await flush();
    expect(log).toEqual(['alone a', 'alone b']);
  });

  it('takes at most `max` writes into one batch', async () => {
    const { batches, log, gates } = harness({ max: 2, patienceMs: 10_000 });
    for (const w of ['a', 'b', 'c', 'd']) void batches.submit('lane', w);
    await flush();
    gates[0].resolve();
    await flush();
    expect(log).toEqual(['alone a', 'together b,c']);
    gates[1].resolve();
    await flush();
    await flush();
    expect(log).toEqual(['alone a', 'together b,c', 'alone d']);
  });

  it('answers every write of a batch that threw with its error, and goes on with the lane', async () => {
    const first = deferred();
    const batches = new NumberedBatches<string, string>(
      async (w) => {
        if (w === 'a') await first.promise;
        return `${w} alone`;
      },
      async () => {
        throw new Error('lost');
      },
    );
    const a = batches.submit('lane', 'a');
    const b = batches.submit('lane', 'b');
    const c = batches.submit('lane', 'c');
    first.resolve();
    await expect(a).resolves.toBe('a alone');
    await expect(b).rejects.toThrow('lost');
    await expect(c).rejects.toThrow('lost');
    await expect(batches.submit('lane', 'd')).resolves.toBe('d alone');
  });

  it('lets writes waiting behind a unit that outlasts the patience run alone, and newcomers too, until it ends', async () => {
    jest.useFakeTimers();
    try {
      const { batches, log, gates } = harness({ max: 32, patienceMs: 250 });
      void batches.submit('lane', 'a');
      void batches.submit('lane', 'b');
      await Promise.resolve();
      expect(log).toEqual(['alone a']);
      jest.advanceTimersByTime(249);
      expect(log).toEqual(['alone a']);
      jest.advanceTimersByTime(1);
      expect(log).toEqual(['alone a', 'alone b']);
      void batches.submit('lane', 'c');
      expect(log).toEqual(['alone a', 'alone b', 'alone c']);
      gates[0].resolve();
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
      // the stalled unit ended: the lane batches again
      void batches.submit('lane', 'd');
      void batches.submit('lane', 'e');
      expect(log.slice(3)).toEqual(['alone d']);
    } finally {
      jest.useRealTimers();
    }
  });
});
