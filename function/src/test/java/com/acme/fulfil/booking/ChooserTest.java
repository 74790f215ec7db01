package com.acme.fulfil.booking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exhaustive search the booking model runs on, whole or shared out in parts. */
class ChooserTest {

  /**
   * A run of a made-up model whose choices depend on the ones before, as the booking model's do: how many
   * options a point offers, and how deep a run goes, both follow from the path so far.
   */
  private static String run(Chooser choices) {
    StringBuilder way = new StringBuilder();
    int last = 0;
    for (int depth = 0; depth < 4 && !(depth >= 2 && last == 0); depth++) {
      last = choices.choose(2 + (depth + last) % 2);
      way.append(last);
    }
    return way.toString();
  }

  private static List<String> search(List<Integer> prefix, int handOffAbove, Deque<List<Integer>> parts) {
    List<String> ways = new ArrayList<>();
    Chooser.Exhaustive choices = new Chooser.Exhaustive(prefix, handOffAbove, parts::add);
    do {
      ways.add(run(choices));
    } while (choices.next());
    return ways;
  }

  @Test
  void aSearchSharedOutInPartsRunsEveryWayOfTheWholeSearchExactlyOnce() {
    List<String> whole = search(List.of(), 0, new ArrayDeque<>());

    Deque<List<Integer>> parts = new ArrayDeque<>();
    List<String> shared = new ArrayList<>(search(List.of(), 3, parts));
    int partCount = 1;
    while (!parts.isEmpty()) {
      shared.addAll(search(parts.poll(), 3, parts));
      partCount++;
    }

    assertThat(whole).doesNotHaveDuplicates().hasSizeGreaterThan(10);
    assertThat(partCount).isGreaterThan(2);
    assertThat(shared).containsExactlyInAnyOrderElementsOf(whole);
  }
}
