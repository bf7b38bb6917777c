package org.zstack.aio.zstack;

import org.springframework.beans.BeansException;
import org.springframework.beans.MutablePropertyValues;
import org.springframework.beans.PropertyValue;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.ManagedList;
import org.springframework.orm.jpa.persistenceunit.MutablePersistenceUnitInfo;
import org.springframework.orm.jpa.persistenceunit.PersistenceUnitPostProcessor;

import java.util.Arrays;
import java.util.Collection;

/**
 * Adds the module's entity to ZStack's persistence unit. ZStack's persistence.xml names its entities one by one, and
 * Hibernate scans for more only where persistence.xml lies (WEB-INF/classes), never in WEB-INF/lib's jars; so, rather
 * than editing ZStack's persistence.xml, this Spring post-processor (run before any bean exists) hands ZStack's
 * {@code entityManagerFactory} one more {@link PersistenceUnitPostProcessor}, keeping any it already has.
 */
public class AioPersistenceUnit implements BeanFactoryPostProcessor, PersistenceUnitPostProcessor {
    static final String ENTITY_MANAGER_FACTORY = "entityManagerFactory";
    private static final String PROPERTY = "persistenceUnitPostProcessors";

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory factory) throws BeansException {
        if (!factory.containsBeanDefinition(ENTITY_MANAGER_FACTORY)) {
            throw new IllegalStateException("plugin-aio: ZStack's bean '" + ENTITY_MANAGER_FACTORY + "' is missing;"
                    + " the module's stored decisions cannot be registered with ZStack's database");
        }
        MutablePropertyValues values = factory.getBeanDefinition(ENTITY_MANAGER_FACTORY).getPropertyValues();
        // Spring resolves a ManagedList's bean definitions and references before it sets the property
        ManagedList<Object> processors = new ManagedList<>();
        PropertyValue existing = values.getPropertyValue(PROPERTY);
        Object old = existing == null ? null : existing.getValue();
        if (old instanceof Object[]) {
            processors.addAll(Arrays.asList((Object[]) old));
        } else if (old instanceof Collection) {
            processors.addAll((Collection<?>) old);
        } else if (old != null) {
            processors.add(old);
        }
        processors.add(this);
        values.add(PROPERTY, processors);
    }

    @Override
    public void postProcessPersistenceUnitInfo(MutablePersistenceUnitInfo unit) {
        unit.addManagedClassName(AioVolumeIoModeDecisionVO.class.getName());
        unit.addManagedClassName(AioStorageBenchmarkVO.class.getName());
    }
}
