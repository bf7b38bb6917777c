package org.zstack.aio.decision;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decision stays pure: classes in org.zstack.aio.decision (module aio-decision-core, which has no dependency at
 * all) use only the JDK and each other. The rules subpackage of this module, which reads YAML with Jackson, is the
 * one exception, and the core never reaches into it.
 */
class DecisionPurityTest {

    private static final String DECISION = "org.zstack.aio.decision";

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(DECISION);

    private static ArchRule onlyJdkAndOwnPackage(String pkg) {
        return classes().that().resideInAPackage(pkg)
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", pkg)
                .because("the decision is a pure function shared with the agent: no framework, no I/O library");
    }

    @Test
    void decisionDependsOnlyOnTheJdkAndItself() {
        assertThat(MAIN.stream().filter(c -> c.getPackageName().equals(DECISION)))
                .as("the decider's classes were imported").extracting(c -> c.getSimpleName())
                .contains("IoModeDecider", "ModeChecks", "IoModeRules", "Version");
        onlyJdkAndOwnPackage(DECISION).check(MAIN);
    }

    @Test
    void decisionDoesNotReachIntoTheRulesLoader() {
        classes().that().resideInAPackage(DECISION)
                .should().onlyDependOnClassesThat().resideOutsideOfPackage(DECISION + ".rules..")
                .check(MAIN);
    }

    @Test
    void theRuleCatchesAForeignDependency() {
        // the loader uses Jackson: the same rule applied to its package must report it, or the rule checks nothing
        EvaluationResult r = onlyJdkAndOwnPackage(DECISION + ".rules").evaluate(MAIN);
        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).anyMatch(line -> line.contains("com.fasterxml.jackson"));
    }
}
