package com.acme.fulfil.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.acme.fulfil.contract.settings.DeployedNames;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./fulfil-ops drill} against the deployed stack as AWS would answer it: its outputs and function from
 * {@link FakeControlPlane}, its alarms and topic from {@link FakeAlarmTopic}, which plays CloudWatch running an
 * alarm's SNS action under the topic's policy. The drill fails on the topic as the stack makes it today (the TLS
 * Deny alone: CloudWatch is not authorized to publish) and passes once the policy allows CloudWatch; it names a
 * subscription nobody confirmed, gives up on an action never recorded, and always sets the alarm back.
 */
class PageDrillTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FIRST_ALARM = AlarmNames.ALL.stream().sorted().findFirst().orElseThrow();

  private FakeControlPlane controlPlane;
  private FakeAlarmTopic aws;
  private Map<String, String> env;

  @BeforeEach
  void deployed() throws Exception {
    controlPlane = new FakeControlPlane(Map.of("QueueUrl", "http://127.0.0.1:1/000000000000/orders-to-fulfil",
        "DlqUrl", "http://127.0.0.1:1/000000000000/orders-to-fulfil-dlq", "IdempotencyTableName", "fulfil-order-idempotency",
        "PartnerApiKeySecretArn", FakeControlPlane.SECRET_ARN), TimingBudget.defaults(),
        "arn:aws:sqs:us-east-1:000000000000:orders-to-fulfil");
    aws = new FakeAlarmTopic();
    env = new HashMap<>(controlPlane.endpoints());
    env.putAll(aws.endpoints());
    env.putAll(Map.of("AWS_REGION", FakeAlarmTopic.REGION, "AWS_ACCESS_KEY_ID", "AKIDEXAMPLE",
        "AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        CommittedSettings.FILE_VARIABLE, Path.of(System.getProperty("fulfil.repository", ".."), "infra", "cdk.json").toString()));
  }

  @AfterEach
  void close() {
    aws.close();
    controlPlane.close();
  }

  /** Today's topic policy: CloudWatch records that it may not publish, and the drill says so in its words. */
  @Test
  void failsOnATopicWhosePolicyOnlyDeniesPublishingWithoutTls() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.TLS_DENY_ONLY;

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isEqualTo(1);
    assertThat(drill.out()).contains("the drill FAILED")
        .contains("CloudWatch could not publish the page, so no alarm reaches on-call: Failed to execute action "
            + FakeAlarmTopic.TOPIC + ". Received error: \"Resource: " + FakeAlarmTopic.alarmArn(FIRST_ALARM)
            + " is not authorized to perform: SNS:Publish on resource: " + FakeAlarmTopic.TOPIC + "\"");
    assertThat(aws.published).isEmpty();
    assertThat(aws.statesSet).containsExactly(FIRST_ALARM + " ALARM", FIRST_ALARM + " OK");
    assertThat(aws.alarms.get(FIRST_ALARM).state).isEqualTo("OK");

    JsonNode json = JSON.readTree(new OpsRun(env, "drill", "--json").out());
    assertThat(json.path("published").asBoolean(true)).isFalse();
    assertThat(json.path("action").asText()).contains("not authorized to perform: SNS:Publish");
  }

  @Test
  void passesOnceThePolicyLetsCloudWatchPublishAndEveryoneHasConfirmed() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED;

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isZero();
    assertThat(drill.out()).contains("CloudWatch's action history: Successfully executed action " + FakeAlarmTopic.TOPIC)
        .contains("the drill passed").contains("set " + FIRST_ALARM + " back to OK");
    // The drill's page and the OK that ends it: both reach the confirmed address.
    assertThat(aws.published).containsExactly(FIRST_ALARM + " to " + FakeControlPlane.ALARM_EMAIL,
        FIRST_ALARM + " to " + FakeControlPlane.ALARM_EMAIL);

    JsonNode json = JSON.readTree(new OpsRun(env, "drill", "--json").out());
    assertThat(json.path("alarm").asText()).isEqualTo(FIRST_ALARM);
    assertThat(json.path("published").asBoolean()).isTrue();
    assertThat(json.path("set_back_to").asText()).isEqualTo("OK");
    assertThat(json.path("failures")).isEmpty();
    assertThat(json.path("confirmed_subscriptions").asInt()).isEqualTo(1);
  }

  /** A policy that allows CloudWatch for another account's alarms only allows nothing here. */
  @Test
  void anAllowScopedToAnotherAccountsAlarmsDoesNotLetThePagePass() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED.replace(":" + FakeAlarmTopic.ACCOUNT + ":alarm:", ":111122223333:alarm:");

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isEqualTo(1);
    assertThat(drill.out()).contains("not authorized to perform: SNS:Publish");
  }

  /** CloudWatch published, but to no one who reads it. */
  @Test
  void namesEverySubscriptionStillPendingConfirmationAsNobodyPaged() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED;
    aws.subscriptions.clear();
    aws.subscriptions.add(new FakeAlarmTopic.Subscription("email", FakeControlPlane.ALARM_EMAIL, PageDrill.PENDING_CONFIRMATION));

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isEqualTo(1);
    assertThat(drill.out()).contains("Successfully executed action")
        .contains("email " + FakeControlPlane.ALARM_EMAIL + " has not confirmed its subscription to " + FakeAlarmTopic.TOPIC
            + ": nobody is paged there")
        .contains(FakeAlarmTopic.TOPIC + " has no confirmed subscription: nobody is paged");
    assertThat(aws.published).isEmpty();
    JsonNode json = JSON.readTree(new OpsRun(env, "drill", "--json").out());
    assertThat(json.path("pending_subscriptions").get(0).asText()).isEqualTo("email " + FakeControlPlane.ALARM_EMAIL);
  }

  /** An alarm in ALARM cannot page again: the drill takes one that is not, and leaves the real one as it is. */
  @Test
  void drillsAnAlarmThatIsNotInAlarmAndLeavesOneThatIs() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED;
    aws.alarms.get(FIRST_ALARM).state = "ALARM";
    String second = AlarmNames.ALL.stream().sorted().skip(1).findFirst().orElseThrow();
    aws.alarms.get(second).state = "INSUFFICIENT_DATA";

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isZero();
    assertThat(aws.statesSet).containsExactly(second + " ALARM", second + " INSUFFICIENT_DATA");
    assertThat(aws.alarms.get(FIRST_ALARM).state).isEqualTo("ALARM");
  }

  /**
   * CloudWatch sets a metric alarm back at its next evaluation, often within seconds: the drill still finds its own
   * page, after its own change of state, and not an action from before it.
   */
  @Test
  void findsItsPageWhenCloudWatchSetsTheAlarmBackFirstAndNotAnOlderOne() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.TLS_DENY_ONLY;
    aws.alarms.values().forEach(alarm -> alarm.state = "INSUFFICIENT_DATA");
    // A page that once got through, before the policy was what it is now.
    aws.history.add(new FakeAlarmTopic.HistoryItem(FIRST_ALARM, aws.alarms.get(FIRST_ALARM).updated, "Action",
        "Successfully executed action " + FakeAlarmTopic.TOPIC, "{}"));
    aws.evaluatesAtOnce = true;

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isEqualTo(1);
    assertThat(drill.out()).contains("CloudWatch's action history: Failed to execute action " + FakeAlarmTopic.TOPIC);
    assertThat(aws.alarms.get(FIRST_ALARM).state).isEqualTo("INSUFFICIENT_DATA");
  }

  /** Read until the limit, then a failure that says no page is known to have been sent; the alarm is set back. */
  @Test
  void givesUpOnAnActionCloudWatchNeverRecordsAndStillSetsTheAlarmBack() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED;
    aws.recordsActions = false;

    try (Stack stack = Stack.resolve(env, DeployedNames.STACK)) {
      Report report = new PageDrill(stack, Clock.systemUTC(), Duration.ofMillis(100), Duration.ofSeconds(1)).run();
      assertThat(report.exitCode()).isEqualTo(1);
      assertThat(String.join("\n", report.lines())).contains("CloudWatch recorded no action on " + FakeAlarmTopic.TOPIC
          + " for " + FIRST_ALARM + " within 1 s: no page is known to have been sent");
      assertThat(report.json().path("published").isNull()).isTrue();
    }
    assertThat(aws.alarms.get(FIRST_ALARM).state).isEqualTo("OK");
  }

  /** A caller that may not set the alarm back is told the command that does it. */
  @Test
  void anAlarmItCannotSetBackIsAFailureWithTheCommandToRunByHand() throws Exception {
    aws.topicPolicy = FakeAlarmTopic.CLOUDWATCH_ALLOWED;
    aws.refusesSettingBack = true;

    OpsRun drill = new OpsRun(env, "drill");
    assertThat(drill.exitCode()).as(drill.out() + drill.err()).isEqualTo(1);
    assertThat(drill.out()).contains("could not set " + FIRST_ALARM + " back to OK")
        .contains("aws cloudwatch set-alarm-state --alarm-name " + FIRST_ALARM + " --state-value OK");
  }
}
