package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmRule;
import com.acme.fulfil.contract.alarms.AlarmRules;
import com.acme.fulfil.contract.timing.TimingBudget;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The alarms the stack deploys are the rules the local run plays ({@code ./run-local} with cdk.json's
 * settings: the default budget, 10 invocations at once), so what the local run says fired is what would
 * have paged.
 */
class AlarmRulesTest {
  private static final int CDK_JSON_MAX_CONCURRENCY = 10;

  private final Template template = Synth.defaults();
  private final TimingBudget budget = TimingBudget.builder().build();
  private final List<AlarmRule> rules = AlarmRules.of(budget, budget.capacity(CDK_JSON_MAX_CONCURRENCY));

  @Test
  void theStackDeploysExactlyTheAlarmsTheLocalRunPlays() {
    assertThat(alarms().keySet()).containsExactlyInAnyOrderElementsOf(rules.stream().map(AlarmRule::name).toList());
  }

  @Test
  void eachAlarmFiresAsItsRuleSays() {
    Map<String, Map<String, Object>> alarms = alarms();
    for (AlarmRule rule : rules) {
      Map<String, Object> alarm = alarms.get(rule.name());
      assertThat(((Number) alarm.get("Threshold")).doubleValue()).as("%s threshold", rule.name()).isEqualTo(rule.threshold());
      assertThat(alarm).as(rule.name()).containsEntry("ComparisonOperator", "GreaterThanThreshold")
          .containsEntry("EvaluationPeriods", rule.evaluationPeriods())
          .containsEntry("DatapointsToAlarm", rule.datapointsToAlarm())
          .containsEntry("TreatMissingData", switch (rule.missingData()) {
            case NOT_BREACHING -> "notBreaching";
            case BREACHING -> "breaching";
            case IGNORE -> "ignore";
            case MISSING -> "missing";
          });
      assertThat(periods(alarm)).as("%s periods", rule.name()).containsOnly((int) rule.period().toSeconds());
      if (alarm.containsKey("Statistic")) {
        assertThat(alarm.get("Statistic").toString().toUpperCase()).as("%s statistic", rule.name())
            .isEqualTo(rule.signal().statistic().name());
      }
    }
  }

  /** The alarm's period, or the periods of every metric its expression reads. */
  @SuppressWarnings("unchecked")
  private static List<Integer> periods(Map<String, Object> alarm) {
    if (alarm.containsKey("Period")) {
      return List.of((Integer) alarm.get("Period"));
    }
    return ((List<Map<String, Object>>) alarm.get("Metrics")).stream()
        .filter(query -> query.containsKey("MetricStat"))
        .map(query -> (Integer) ((Map<String, Object>) query.get("MetricStat")).get("Period"))
        .toList();
  }

  @SuppressWarnings("unchecked")
  private Map<String, Map<String, Object>> alarms() {
    return template.findResources("AWS::CloudWatch::Alarm").values().stream()
        .map(resource -> (Map<String, Object>) resource.get("Properties"))
        .collect(Collectors.toMap(properties -> (String) properties.get("AlarmName"), properties -> properties));
  }
}
