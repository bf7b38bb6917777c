package org.zstack.aio.launcher;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoModeDecider;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** The launcher, like the server (ServerArchitectureTest.onlyTheCoreDecides), never decides around the core's use case. */
class LauncherArchitectureTest {

    private static final JavaClasses LAUNCHER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.zstack.aio.launcher");

    @Test
    void onlyTheCoreDecides() {
        assertThat(LAUNCHER.contain(DemoInventory.class)).isTrue();
        noClasses().should().dependOnClassesThat(belongToAnyOf(IoModeDecider.class, DecisionInput.class))
                .because("the core's DiskIoModes decides; a platform hands it facts through its ports").check(LAUNCHER);
    }
}
