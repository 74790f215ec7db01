package com.acme.fulfil.booking;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

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
   *
   * <p>A search can be shared out: a part searches only the ways that begin with its prefix of choices,
   * and at each choice point it meets above a depth of {@code handOffAbove}, it keeps option 0 and hands
   * every other option on as a part of its own. Parts can then be searched side by side, and together
   * they cover every way exactly once.
   */
  public final class Exhaustive implements Chooser {
    /** A prefix's option count, until its first run meets the point. */
    private static final int UNKNOWN = -1;
    /** A point whose other options were handed off, or that belongs to the prefix: never backtracked. */
    private static final int FIXED = 1;
    /** Each point on the current path: the option taken, how many there were, and whether it is fixed. */
    private final List<int[]> path = new ArrayList<>();
    private final int handOffAbove;
    private final Consumer<List<Integer>> handOff;
    private int position;

    /**
     * @param prefix the choices every way of this part begins with
     * @param handOffAbove the depth above which a new choice point's other options become parts of their own
     * @param handOff where those parts go, each as its prefix
     */
    public Exhaustive(List<Integer> prefix, int handOffAbove, Consumer<List<Integer>> handOff) {
      prefix.forEach(choice -> path.add(new int[] {choice, UNKNOWN, FIXED}));
      this.handOffAbove = handOffAbove;
      this.handOff = handOff;
    }

    @Override
    public int choose(int count) {
      if (position < path.size()) {
        int[] made = path.get(position++);
        if (made[1] == UNKNOWN) {
          made[1] = count;
        } else if (made[1] != count) {
          throw new IllegalStateException("a replayed run offered " + count + " options where it offered " + made[1]
              + ": the run is not deterministic");
        }
        return made[0];
      }
      boolean handsOff = position < handOffAbove && count > 1;
      if (handsOff) {
        List<Integer> here = path.stream().map(made -> made[0]).toList();
        for (int option = 1; option < count; option++) {
          List<Integer> part = new ArrayList<>(here);
          part.add(option);
          handOff.accept(part);
        }
      }
      path.add(new int[] {0, count, handsOff ? FIXED : 0});
      position++;
      return 0;
    }

    public boolean next() {
      position = 0;
      while (!path.isEmpty()) {
        int[] last = path.getLast();
        if (last[2] == FIXED) {
          return false;
        }
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
