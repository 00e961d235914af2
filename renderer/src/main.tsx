import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from './api';
import { App } from './app/App';
import { ClientProvider } from './app/client';
import './styles/base.css';
import './styles/layout.css';
import './styles/ask.css';
import './styles/conversations.css';
import './styles/evidence.css';
import './styles/views.css';
import './styles/evaluate.css';
import './styles/setup.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

createRoot(root).render(
  <StrictMode>
    <ClientProvider client={api}>
      <App />
    </ClientProvider>
  </StrictMode>,
);
