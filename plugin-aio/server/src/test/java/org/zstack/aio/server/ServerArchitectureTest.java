package org.zstack.aio.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;
import org.zstack.aio.server.archcheck.one.One;
import org.zstack.aio.server.archcheck.two.Two;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.iomode.DiskPlan;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.server.archcheck.decides.DecidesItself;
import org.zstack.aio.server.iomode.Decided;
import org.zstack.aio.server.iomode.MigrationPlan;
import org.zstack.aio.server.iomode.VolumeContext;

import java.net.URISyntaxException;
import java.nio.file.Path;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's feature packages depend on each other one way only, a VM operation goes down into the io-mode feature
 * and is never called back by it, and the server never reaches into the agent.
 */
class ServerArchitectureTest {

    /** The server's own classes only (its output folder, not the whole classpath: seconds, not half a minute). */
    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(outputOf(AioServerApplication.class));

    private static Path outputOf(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theServerWasImported() {
        assertThat(SERVER.contain(AioServerApplication.class)).isTrue();
        assertThat(SERVER.size()).isGreaterThan(80);
    }

    @Test
    void featurePackagesHaveNoCycles() {
        slices().matching("org.zstack.aio.server.(*)..").should().beFreeOfCycles().check(SERVER);
    }

    @Test
    void theCycleRuleReportsACycle() {
        // two test-only packages that use each other: the same rule must fail on them, or it checks nothing
        JavaClasses cycle = new ClassFileImporter().importClasses(One.class, Two.class);
        EvaluationResult r = slices().matching("org.zstack.aio.server.archcheck.(*)..").should().beFreeOfCycles().evaluate(cycle);
        assertThat(r.hasViolation()).isTrue();
    }

    @Test
    void theServerTalksToAgentsOnlyThroughTheWireApi() {
        noClasses().should().dependOnClassesThat(resideInAPackage("org.zstack.aio.agent..")
                .and(resideOutsideOfPackage("org.zstack.aio.agent.api.."))).check(SERVER);
    }

    /**
     * A VM operation (package vm) asks iomode for its disks through {@link DiskPlanner} and hands the agent's answer
     * to the plan it got; it does not decide, build the agent's disks or store decisions itself. The decided and
     * stored decisions (and a decided volume's context) are values it may read. (Before issue 26, vm's DiskIoPolicy called IoModeService.record.)
     */
    @Test
    void vmOperationsReachIoModeOnlyThroughTheDiskPlanner() {
        noClasses().that().resideInAPackage("org.zstack.aio.server.vm..")
                .should().dependOnClassesThat(resideInAPackage("org.zstack.aio.server.iomode..")
                        .and(not(belongToAnyOf(DiskPlanner.class, DiskPlan.class, MigrationPlan.class,
                                Decided.class, VolumeContext.class))))
                .check(SERVER);
    }

    /**
     * Issue 32: the core's use case ({@code DiskIoModes}) is the front door. The server reads facts and configs for it
     * and records what it answers; no class of the server builds the decider's input or asks the decider itself (the
     * launcher's own test holds it to the same rule).
     */
    @Test
    void onlyTheCoreDecides() {
        ONLY_THE_CORE_DECIDES.check(SERVER);
    }

    @Test
    void theCoreRuleReportsAClassThatDecidesItself() {
        EvaluationResult r = ONLY_THE_CORE_DECIDES.evaluate(new ClassFileImporter().importClasses(DecidesItself.class));
        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).anyMatch(d -> d.contains("IoModeDecider"))
                .anyMatch(d -> d.contains("DecisionInput"));
    }

    static final com.tngtech.archunit.lang.ArchRule ONLY_THE_CORE_DECIDES = noClasses()
            .should().dependOnClassesThat(belongToAnyOf(IoModeDecider.class, DecisionInput.class))
            .because("the core's DiskIoModes decides; a platform hands it facts through its ports");

    /** iomode lies below the VM operations: it neither calls them back, nor the agent, nor the tracker. */
    @Test
    void ioModeNeverCallsBackUp() {
        noClasses().that().resideInAPackage("org.zstack.aio.server.iomode..")
                .should().dependOnClassesThat(resideInAPackage("org.zstack.aio.server.vm..")
                        .or(resideInAPackage("org.zstack.aio.server.tracker.."))
                        .or(belongToAnyOf(AgentClient.class)))
                .check(SERVER);
    }
}
