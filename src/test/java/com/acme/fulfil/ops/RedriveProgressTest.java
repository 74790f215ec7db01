package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;

/**
 * SQS's move task counts are approximate, and the count to move is taken when the task starts: a task
 * once reported {@code COMPLETED} with 1 moved of 0 to move, and {@code redrive --go} printed "1 of 0 moved".
 */
class RedriveProgressTest {
  @Test
  void aTaskThatMovedMoreThanItCountedSaysOnlyWhatItMoved() {
    assertThat(Redrive.moved(task(1L, 0L))).isEqualTo("1 moved");
    assertThat(Redrive.moved(task(3L, null))).isEqualTo("3 moved");
  }

  @Test
  void aTaskUnderWaySaysWhatItMovedOfWhatItCounted() {
    assertThat(Redrive.moved(task(2L, 5L))).isEqualTo("2 of 5 moved");
    assertThat(Redrive.moved(task(null, 5L))).isEqualTo("0 of 5 moved");
  }

  private static ListMessageMoveTasksResultEntry task(Long moved, Long toMove) {
    return ListMessageMoveTasksResultEntry.builder().status("RUNNING").approximateNumberOfMessagesMoved(moved)
        .approximateNumberOfMessagesToMove(toMove).build();
  }
}
