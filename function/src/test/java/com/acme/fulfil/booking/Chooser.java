package com.acme.fulfil.booking;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Where a model run goes at each point it could go several ways. */
public interface Chooser {
  int choose(int count);

  /** A random walk through the choices, the same one for the same seed. */
  public final class AtRandom implements Chooser {
    private final Random random;

    public AtRandom(long seed) {
      random = new Random(seed);
    }

    @Override
    public int choose(int count) {
      return random.nextInt(count);
    }
  }

  /**
   * Stateless model checking by replay: a run asks for a choice among {@code count} options; the first
   * run takes option 0 everywhere, and each later run replays the earlier choices and takes the next
   * option at the deepest point that has one left, until none has.
   */
  public final class Exhaustive implements Chooser {
    private final List<int[]> path = new ArrayList<>();
    private int position;

    @Override
    public int choose(int count) {
      if (position < path.size()) {
        int[] made = path.get(position++);
        if (made[1] != count) {
          throw new IllegalStateException("a replayed run offered " + count + " options where it offered " + made[1]
              + ": the run is not deterministic");
        }
        return made[0];
      }
      path.add(new int[] {0, count});
      position++;
      return 0;
    }

    public boolean next() {
      position = 0;
      while (!path.isEmpty()) {
        int[] last = path.getLast();
        if (last[0] + 1 < last[1]) {
          last[0]++;
          return true;
        }
        path.removeLast();
      }
      return false;
    }
  }
}
