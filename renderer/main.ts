/** Renderer entry: one Vue app with Pinia, mounted on #app. */
import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import './styles/theme.css';
import './styles/base.css';

createApp(App).use(createPinia()).mount('#app');
