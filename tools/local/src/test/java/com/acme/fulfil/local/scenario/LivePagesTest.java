package com.acme.fulfil.local.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.alarms.AlarmPage;
import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.alarm.AlarmOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LivePagesTest {
  private static final Duration FIRED = Duration.ofSeconds(4);
  private static final Duration CLEARED = Duration.ofSeconds(10);

  private final List<List<AlarmOutcome>> evaluations = new ArrayList<>();
  private final List<PageEvent> told = new ArrayList<>();
  private final LivePages pages = new LivePages(() -> evaluations.getLast(), told::add);

  @Test
  void tellsEachFiringOnceAsItFiresAndOnceAsItClears() {
    evaluate(outcome(AlarmNames.PARTNER_FAILING, new AlarmOutcome.Firing(FIRED, Optional.empty())));
    evaluate(outcome(AlarmNames.PARTNER_FAILING, new AlarmOutcome.Firing(FIRED, Optional.empty())));
    evaluate(outcome(AlarmNames.PARTNER_FAILING, new AlarmOutcome.Firing(FIRED, Optional.of(CLEARED))));
    evaluate(outcome(AlarmNames.PARTNER_FAILING, new AlarmOutcome.Firing(FIRED, Optional.of(CLEARED)),
        new AlarmOutcome.Firing(CLEARED.plus(FIRED), Optional.empty())));

    assertThat(told).containsExactly(
        new PageEvent(AlarmPage.of(AlarmNames.PARTNER_FAILING), PageEvent.State.ALARM, FIRED),
        new PageEvent(AlarmPage.of(AlarmNames.PARTNER_FAILING), PageEvent.State.OK, CLEARED),
        new PageEvent(AlarmPage.of(AlarmNames.PARTNER_FAILING), PageEvent.State.ALARM, CLEARED.plus(FIRED)));
  }

  @Test
  void aFiringThatClearedBetweenTwoEvaluationsIsToldBothWays() {
    evaluate(outcome(AlarmNames.DLQ_NEW_MESSAGES, new AlarmOutcome.Firing(FIRED, Optional.of(CLEARED))));

    assertThat(told).extracting(PageEvent::state).containsExactly(PageEvent.State.ALARM, PageEvent.State.OK);
  }

  @Test
  void neverTellsAnAlarmServeSaysItCannotPlay() {
    assertThat(LocalStandIn.of(AlarmNames.FUNCTION_THROTTLES).notPlayed()).isPresent();
    evaluate(outcome(AlarmNames.FUNCTION_THROTTLES, new AlarmOutcome.Firing(FIRED, Optional.empty())));

    assertThat(told).isEmpty();
  }

  @Test
  void aPageSaysWhenWhatItMeansItsFirstCommandAndItsSection() {
    AlarmPage page = AlarmPage.of(AlarmNames.PARTNER_FAILING);
    List<String> lines = new PageEvent(page, PageEvent.State.ALARM, FIRED).lines(TimeScale.INCIDENT_REPLAY);

    assertThat(String.join("\n", lines)).contains(AlarmNames.PARTNER_FAILING, "4.0 s (2.0 min)", page.meaning(),
        page.firstCommand(), RunbookSections.see(RunbookSections.PARTNER_OUTAGE),
        LocalStandIn.of(AlarmNames.PARTNER_FAILING).onTheLocalStack());
    assertThat(new PageEvent(page, PageEvent.State.OK, CLEARED).lines(TimeScale.INCIDENT_REPLAY))
        .containsExactly("OK     " + AlarmNames.PARTNER_FAILING + " at 10.0 s (5.0 min)");
  }

  private void evaluate(AlarmOutcome outcome) {
    evaluations.add(List.of(outcome));
    pages.evaluate();
  }

  private static AlarmOutcome outcome(String alarm, AlarmOutcome.Firing... firings) {
    return new AlarmOutcome(alarm, 0, Optional.empty(), List.of(firings));
  }
}
